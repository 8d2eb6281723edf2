/** The e-mail (Loops) tools, importable alone as `flowblocks/tools/loops`. */
import { defineService, lineIcon } from '../../src/kit.js';
import apiCall from './api-call.js';
import checkContactSuppression from './check-contact-suppression.js';
import { connection } from './connection.js';
import createContactProperty from './create-contact-property.js';
import createContact from './create-contact.js';
import deleteContact from './delete-contact.js';
import { getEventPattern, listDedicatedSendingIps, listEventPatterns } from './event-patterns.js';
import findContact from './find-contact.js';
import getTransactionalEmail from './get-transactional-email.js';
import listContactProperties from './list-contact-properties.js';
import listMailingLists from './list-mailing-lists.js';
import listTransactionalEmails from './list-transactional-emails.js';
import removeContactSuppression from './remove-contact-suppression.js';
import sendEvent from './send-event.js';
import sendTransactionalEmail from './send-transactional-email.js';
import testApiKey from './test-api-key.js';
import updateContact from './update-contact.js';

export {
  apiCall,
  checkContactSuppression,
  createContact,
  createContactProperty,
  deleteContact,
  findContact,
  getEventPattern,
  getTransactionalEmail,
  listDedicatedSendingIps,
  listEventPatterns,
  listContactProperties,
  listMailingLists,
  listTransactionalEmails,
  removeContactSuppression,
  sendEvent,
  sendTransactionalEmail,
  testApiKey,
  updateContact,
};
export { runTool, paginate } from '../../src/kit.js';

/** Loops as a whole: its connection, and its tools in the order its block lists them. */
export const service = defineService({
  id: 'loops',
  name: 'Loops',
  description:
    'Manage contacts, send transactional e-mail and events, and read mailing lists, templates and contact properties in Loops.',
  docsUrl: 'https://loops.so/docs/api-reference',
  color: '#FF6B35',
  // An envelope with a looping arrow. Drawn for flowblocks on a 24×24 grid.
  icon: lineIcon(
    '<path d="M21.5 12A9.5 9.5 0 1 1 18.1 4.7"/>',
    '<path d="M17.8 1.7l.3 3-3 .3"/>',
    '<rect x="7" y="8.5" width="10" height="7" rx="1"/>',
    '<path d="M7.5 9.3l4.5 3.3 4.5-3.3"/>',
  ),
  connection,
  block: { catalog: { kind: 'email', tags: ['email-marketing', 'marketing'] } },
  tools: [
    createContact,
    updateContact,
    findContact,
    deleteContact,
    sendTransactionalEmail,
    sendEvent,
    listMailingLists,
    listTransactionalEmails,
    getTransactionalEmail,
    createContactProperty,
    listContactProperties,
    checkContactSuppression,
    removeContactSuppression,
    testApiKey,
    listEventPatterns,
    getEventPattern,
    listDedicatedSendingIps,
    apiCall,
  ],
});
