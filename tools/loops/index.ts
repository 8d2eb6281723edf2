/** The e-mail (Loops) tools, importable alone as `flowblocks/tools/loops`. */
import checkContactSuppression from './check-contact-suppression.js';
import createContactProperty from './create-contact-property.js';
import createContact from './create-contact.js';
import deleteContact from './delete-contact.js';
import findContact from './find-contact.js';
import listContactProperties from './list-contact-properties.js';
import listMailingLists from './list-mailing-lists.js';
import listTransactionalEmails from './list-transactional-emails.js';
import removeContactSuppression from './remove-contact-suppression.js';
import sendEvent from './send-event.js';
import sendTransactionalEmail from './send-transactional-email.js';
import testApiKey from './test-api-key.js';
import updateContact from './update-contact.js';

export {
  checkContactSuppression,
  createContact,
  createContactProperty,
  deleteContact,
  findContact,
  listContactProperties,
  listMailingLists,
  listTransactionalEmails,
  removeContactSuppression,
  sendEvent,
  sendTransactionalEmail,
  testApiKey,
  updateContact,
};
export { runTool } from '../../src/harness/execute.js';
export { paginate } from '../../src/harness/paginate.js';

export const loopsTools = [
  createContact,
  updateContact,
  findContact,
  deleteContact,
  sendTransactionalEmail,
  sendEvent,
  listMailingLists,
  listTransactionalEmails,
  createContactProperty,
  listContactProperties,
  checkContactSuppression,
  removeContactSuppression,
  testApiKey,
];
