/**
 * A stand-in for OpenAI's Chat Completions API on loopback, for n8n's *OpenAI Chat Model* node
 * (its credential's base URL pointed here): no network, no key that means anything. Its first
 * answer in a conversation calls the offered tools named in `calls` (matched by the end of the
 * name, since n8n prefixes an MCP tool with its node's name); once the conversation holds tool
 * results, it answers with them as its text. Every request body is kept for the test to read.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../helpers/loopback-server.js';

interface ChatMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
  tool_call_id?: string;
}
export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
}
interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAiStub {
  /** The base URL n8n's OpenAI credential takes (`…/v1`). */
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

/** A message's text, whether sent as a string or as parts. */
export const messageText = (message: ChatMessage): string =>
  typeof message.content === 'string' ? message.content : (message.content ?? []).map((part) => part.text ?? '').join('');

async function readJson(req: IncomingMessage): Promise<ChatRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
}

/** The assistant's next turn: the tool calls on the first, the tool results as text after them. */
function nextTurn(body: ChatRequest, calls: Record<string, Record<string, unknown>>): { content: string | null; toolCalls: ToolCall[] } {
  const results = body.messages.filter((m) => m.role === 'tool');
  if (results.length > 0) return { content: `The tools answered: ${results.map(messageText).join('\n')}`, toolCalls: [] };
  const offered = (body.tools ?? []).map((t) => t.function.name);
  const toolCalls = Object.entries(calls).flatMap(([suffix, args], i) =>
    offered.filter((name) => name.endsWith(`_${suffix}`)).map((name) => ({ id: `call_${i}`, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } })),
  );
  return toolCalls.length > 0 ? { content: null, toolCalls } : { content: 'No tool I was told to call was offered.', toolCalls: [] };
}

function answer(res: ServerResponse, body: ChatRequest, turn: ReturnType<typeof nextTurn>): void {
  const message = { role: 'assistant', content: turn.content, ...(turn.toolCalls.length > 0 && { tool_calls: turn.toolCalls }) };
  const choice = { index: 0, message, finish_reason: turn.toolCalls.length > 0 ? 'tool_calls' : 'stop' };
  const completion = { id: `chatcmpl-${Date.now()}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model, choices: [choice] };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...completion, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
}

/** Starts the stub; `calls` maps a tool name's end (`tinybird_query`) to the arguments the model sends it. */
export async function startOpenAiStub(calls: Record<string, Record<string, unknown>>): Promise<OpenAiStub> {
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"only POST /v1/chat/completions here"}}');
      return;
    }
    readJson(req).then(
      (body) => {
        requests.push(body);
        // n8n's agent asks without streaming outside a chat trigger; a streamed ask would be a change to look at.
        if (body.stream) res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"the stub does not stream"}}');
        else answer(res, body, nextTurn(body, calls));
      },
      () => res.writeHead(400).end(),
    );
  });
  const { origin } = await listenOnLoopback(server);
  return {
    url: `${origin}/v1`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
