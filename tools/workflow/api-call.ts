import { customApiCall } from '../../src/kit.js';
import { apiKeyParam, baseUrlParam, connection } from './connection.js';

export default customApiCall(connection, {
  connectionParams: { base_url: baseUrlParam, apiKey: apiKeyParam },
  id: 'workflow_api_call',
  about: 'the path is under base_url (e.g. /api/v1/logs or /api/workflows/<id>/status).',
});
