import { defineBlock } from '../src/blocks/define-block.js';
import { lineIcon } from '../src/blocks/line-icon.js';
import * as loops from '../tools/loops/index.js';

export default defineBlock({
  type: 'loops',
  name: 'Loops',
  description:
    'Manage contacts, send transactional e-mail and events, and read mailing lists, templates and contact properties in Loops.',
  color: '#FF6B35',
  // An envelope with a looping arrow. Drawn for flowblocks on a 24×24 grid.
  icon: lineIcon(
    '<path d="M21.5 12A9.5 9.5 0 1 1 18.1 4.7"/>',
    '<path d="M17.8 1.7l.3 3-3 .3"/>',
    '<rect x="7" y="8.5" width="10" height="7" rx="1"/>',
    '<path d="M7.5 9.3l4.5 3.3 4.5-3.3"/>',
  ),
  docsUrl: 'https://loops.so/docs/api-reference',
  operations: [
    { id: 'create_contact', label: 'Create contact', tool: loops.createContact },
    { id: 'update_contact', label: 'Update contact', tool: loops.updateContact },
    { id: 'find_contact', label: 'Find contact', tool: loops.findContact },
    { id: 'delete_contact', label: 'Delete contact', tool: loops.deleteContact },
    { id: 'send_transactional_email', label: 'Send transactional email', tool: loops.sendTransactionalEmail },
    { id: 'send_event', label: 'Send event', tool: loops.sendEvent },
    { id: 'list_mailing_lists', label: 'List mailing lists', tool: loops.listMailingLists },
    { id: 'list_transactional_emails', label: 'List transactional emails', tool: loops.listTransactionalEmails },
    { id: 'create_contact_property', label: 'Create contact property', tool: loops.createContactProperty },
    { id: 'list_contact_properties', label: 'List contact properties', tool: loops.listContactProperties },
    { id: 'check_contact_suppression', label: 'Check contact suppression', tool: loops.checkContactSuppression },
    { id: 'remove_contact_suppression', label: 'Remove contact suppression', tool: loops.removeContactSuppression },
    { id: 'test_api_key', label: 'Test API key', tool: loops.testApiKey },
  ],
});
