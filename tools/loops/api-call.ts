import { customApiCall } from '../../src/kit.js';
import { apiKeyParam, connection } from './connection.js';

export default customApiCall(connection, {
  connectionParams: { apiKey: apiKeyParam },
  id: 'loops_api_call',
  about: 'the path is under https://app.loops.so/api/v1 (e.g. /campaigns or /workflows), as the vendor\'s OpenAPI lists the /v1 paths.',
});
