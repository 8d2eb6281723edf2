import { z } from 'zod';
import { apiKeyParam, baseUrlParam, connection } from './connection.js';
import { limitsSchema, logEntrySchema } from './schemas.js';

const TRIGGERS = ['api', 'webhook', 'schedule', 'manual', 'chat'] as const;

const isoTime = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);
const idList = (what: string) => z.array(z.string().min(1)).min(1).optional().describe(what);

const output = z.object({
  data: z.array(logEntrySchema).describe('Log entries, newest first unless order is asc'),
  nextCursor: z.string().nullable().describe('Cursor of the next page; null on the last page'),
  limits: limitsSchema.optional(),
});

type Output = z.input<typeof output>;

/** A range given backwards is refused before sending, with the field to fix. */
function checkRange(low: number | undefined, high: number | undefined, path: string, ctx: z.RefinementCtx) {
  if (low !== undefined && high !== undefined && low > high) {
    ctx.addIssue({ code: 'custom', path: [path], message: `${path} is after the end of the range` });
  }
}

const time = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

export default connection.defineTool({
  id: 'workflow_list_logs',
  resource: 'Log',
  name: 'List logs',
  description:
    'List execution logs of a workspace, filtered by workflows, folders, triggers, level, time range, execution id, duration, cost or model, one page at a time (limit, default 100) with a cursor. With followCursor it keeps fetching pages until the last one, maxPages or maxEntries. To poll for new logs use order asc with startDate and the cursor.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z
    .object({
      base_url: baseUrlParam,
      apiKey: apiKeyParam,
      workspaceId: z.string().min(1).describe('Workspace id'),
      workflowIds: idList('Only these workflows'),
      folderIds: idList('Only workflows in these folders'),
      triggers: z.array(z.enum(TRIGGERS)).min(1).optional().describe('Only these triggers: api, webhook, schedule, manual, chat'),
      level: z.enum(['info', 'error']).optional().describe('Only this level'),
      startDate: isoTime.optional().describe('ISO time: runs started at or after it'),
      endDate: isoTime.optional().describe('ISO time: runs started at or before it'),
      executionId: z.string().min(1).optional().describe('Exact execution id'),
      minDurationMs: z.number().nonnegative().optional().describe('Shortest run, in milliseconds'),
      maxDurationMs: z.number().nonnegative().optional().describe('Longest run, in milliseconds'),
      minCost: z.number().nonnegative().optional().describe('Lowest execution cost'),
      maxCost: z.number().nonnegative().optional().describe('Highest execution cost'),
      model: z.string().min(1).optional().describe('Only runs that used this AI model'),
      limit: z.number().int().min(1).max(1000).default(100).describe('Entries per page'),
      cursor: z.string().min(1).optional().describe('nextCursor of the previous page'),
      order: z.enum(['desc', 'asc']).default('desc').describe('By start time: desc (newest first) or asc'),
      details: z.enum(['basic', 'full']).default('basic').describe('basic, or full (workflow, and the included extras)'),
      includeTraceSpans: z.boolean().default(false).describe('Add trace spans (deployments honour it with details full)'),
      includeFinalOutput: z.boolean().default(false).describe('Add the final output (deployments honour it with details full)'),
      followCursor: z.boolean().default(false).describe('Keep fetching pages and return their entries together'),
      maxPages: z.number().int().min(1).max(100).default(10).describe('With followCursor: stop after this many pages'),
      maxEntries: z.number().int().min(1).optional().describe('With followCursor: stop after this many entries'),
    })
    .superRefine((p, ctx) => {
      checkRange(p.minDurationMs, p.maxDurationMs, 'minDurationMs', ctx);
      checkRange(p.minCost, p.maxCost, 'minCost', ctx);
      checkRange(time(p.startDate), time(p.endDate), 'startDate', ctx);
    }),
  output,
  request: (p) =>
    ({
    method: 'GET',
    path: '/api/v1/logs',
    query: {
      workspaceId: p.workspaceId,
      workflowIds: p.workflowIds?.join(','),
      folderIds: p.folderIds?.join(','),
      triggers: p.triggers?.join(','),
      level: p.level,
      startDate: p.startDate,
      endDate: p.endDate,
      executionId: p.executionId,
      minDurationMs: p.minDurationMs,
      maxDurationMs: p.maxDurationMs,
      minCost: p.minCost,
      maxCost: p.maxCost,
      model: p.model,
      limit: p.limit,
      // Opaque, often standard base64: the query encoder escapes its + / =.
      cursor: p.cursor,
      order: p.order,
      details: p.details,
      // Only sent when true: one deployment read the text "false" as true.
      includeTraceSpans: p.includeTraceSpans || undefined,
      includeFinalOutput: p.includeFinalOutput || undefined,
    },
  }),
  // The cursor is read leniently: absent, null, empty (or anything but text) all mean the last page.
  wire: z.looseObject({ data: z.array(logEntrySchema), nextCursor: z.unknown().optional(), limits: limitsSchema.optional() }),
  response: ({ body }): Output => ({
    data: body.data,
    nextCursor: typeof body.nextCursor === 'string' && body.nextCursor !== '' ? body.nextCursor : null,
    limits: body.limits,
  }),
  pagination: {
    cursorParam: 'cursor',
    nextCursor: (page) => page.nextCursor,
    items: (page) => page.data,
  },
  run: async (p, ctx) => {
    if (!p.followCursor) return ctx.call(p);
    const cap = p.maxEntries ?? Infinity;
    const data: Output['data'] = [];
    let cursor = p.cursor;
    for (let pages = 1; ; pages++) {
      // The last page asks only for what the cap leaves, so its nextCursor resumes right after it.
      const page = await ctx.call({ ...p, cursor, limit: Math.min(p.limit, cap - data.length) });
      data.push(...page.data);
      if (!page.nextCursor) return { data, nextCursor: null, limits: page.limits };
      if (pages >= p.maxPages || data.length >= cap) {
        ctx.note(`stopped after ${pages} pages and ${data.length} entries; nextCursor continues the walk`);
        return { data, nextCursor: page.nextCursor, limits: page.limits };
      }
      cursor = page.nextCursor;
    }
  },
});
