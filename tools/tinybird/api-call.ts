import { customApiCall } from '../../src/kit.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';

export default customApiCall(connection, {
  connectionParams: { base_url: baseUrlParam, token: tokenParam },
  id: 'tinybird_api_call',
  about: 'the path is under base_url (the workspace region, e.g. /v0/datasources/events/alter or /v0/tokens). The token\'s scopes decide what it may do.',
});
