// A receiver for the workflow platform's completion webhooks, on plain node:http.
//
//   WEBHOOK_SECRET=... node webhook-receiver.mjs
//
// Env: WEBHOOK_SECRET (required), WEBHOOK_SECRET_PREVIOUS (during a rotation), PORT (3000),
// WEBHOOK_HEADER_PREFIX (svc; a deployment that sends sim-* headers needs "sim").
/* global console */
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import process from 'node:process';
import { verifyWebhook, WebhookDeduplicator, WebhookVerificationError } from 'flowblocks/webhooks';

const PORT = Number(process.env.PORT ?? 3000);
const PATH = '/webhooks/workflow';
const PREFIX = process.env.WEBHOOK_HEADER_PREFIX ?? 'svc';
const MAX_BODY_BYTES = 1024 * 1024;

// Trimmed: a secret pasted into an env file often ends in a newline the sender never had.
const secrets = [process.env.WEBHOOK_SECRET, process.env.WEBHOOK_SECRET_PREVIOUS]
  .map((secret) => secret?.trim())
  .filter(Boolean);
if (secrets.length === 0) {
  console.error('Set WEBHOOK_SECRET to the secret configured on the webhook channel.');
  process.exit(1);
}

// In memory, for one process; pass { store } with a shared store when several run.
// It dedupes on the ids inside the signed body, never on the (unsigned) delivery id header.
const dedupe = new WebhookDeduplicator();

/** The body exactly as sent: the signature covers these bytes, not a re-serialized object. */
function readRawBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function reply(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Your work goes here. Throwing makes the platform retry the delivery. */
async function handleCompletedExecution(event) {
  const { workflowId, executionId, status, totalDurationMs } = event.data;
  console.log(`${event.type}: workflow ${workflowId}, execution ${executionId}, ${status} in ${totalDurationMs} ms (log ${event.links?.log ?? `/v1/logs/executions/${executionId}`})`);
}

const server = createServer(async (req, res) => {
  if (req.method !== 'POST' || req.url !== PATH) return reply(res, 404, { error: 'not found' });

  let body;
  try {
    body = await readRawBody(req);
  } catch {
    return reply(res, 413, { error: 'body too large' });
  }

  let event;
  try {
    event = verifyWebhook({ body, headers: req.headers, secret: secrets, prefix: PREFIX });
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    // A 4xx is final: the platform retries only 5xx and 429, so a forged or replayed delivery is not sent again.
    console.warn(`refused a delivery: ${error.reason}: ${error.message}`);
    return reply(res, error.reason === 'invalid_payload' ? 400 : 401, { error: error.reason });
  }

  // Deliveries come at least once; a repeat is acknowledged and not processed again.
  // Only the event verifyWebhook returned is accepted, so a refused delivery never claims a key.
  if (!(await dedupe.claim(event))) return reply(res, 200, { duplicate: true });

  try {
    await handleCompletedExecution(event);
    reply(res, 200, { received: true });
  } catch (error) {
    // Let the retry through, and ask for it with a 5xx.
    await dedupe.release(event);
    console.error('handling failed:', error);
    reply(res, 500, { error: 'handling failed' });
  }
});

server.listen(PORT, () => console.log(`listening on http://localhost:${PORT}${PATH}`));
