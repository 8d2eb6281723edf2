import { z } from 'zod';

/** The log levels and trigger types the spec lists. */
export const LEVELS = ['info', 'error'] as const;
export const TRIGGERS = ['api', 'webhook', 'schedule', 'manual', 'chat'] as const;

const httpUrl = z.url({ protocol: /^https?$/ });

const webhookChannel = z.strictObject({
  type: z.literal('webhook'),
  url: httpUrl.describe('Endpoint that receives the signed POST'),
  secret: z.string().min(1).optional().describe('Enables the svc-signature HMAC header'),
});

const emailChannel = z.strictObject({
  type: z.literal('email'),
  recipients: z.array(z.email()).min(1).max(10).describe('Each recipient gets its own delivery'),
  transactionalId: z.string().min(1).describe('Loops transactional e-mail template to send'),
  apiKey: z.string().min(1).describe('Loops API key'),
  endpoint: httpUrl.optional().describe('Loops API base URL override (the sandbox)'),
});

const chatChannel = z.strictObject({
  type: z.literal('chat'),
  url: httpUrl.describe('Slack-compatible incoming-webhook URL'),
});

export const channelSchema = z.discriminatedUnion('type', [webhookChannel, emailChannel, chatChannel]);

const windowHours = z.number().positive().max(168);

/** The seven rules; ids follow the platform's own, bounds its server-side ones. */
export const alertRuleSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('consecutive_failures'), count: z.number().int().min(1).max(100) }),
  z.strictObject({ type: z.literal('failure_rate'), percent: z.number().min(1).max(100), windowHours }),
  z.strictObject({ type: z.literal('latency_threshold'), seconds: z.number().positive().max(3600) }),
  z.strictObject({ type: z.literal('latency_spike'), percent: z.number().min(10).max(1000), windowHours }),
  z.strictObject({ type: z.literal('cost_threshold'), cost: z.number().min(0.01).max(1000) }),
  z.strictObject({ type: z.literal('no_activity'), hours: windowHours }),
  z.strictObject({ type: z.literal('error_count'), count: z.number().int().min(1).max(1000), windowHours }),
]);

export const notificationSettingsSchema = z
  .strictObject({
    channels: z.array(channelSchema).min(1),
    /** All workflows, current and future. */
    allWorkflows: z.boolean().optional(),
    workflowIds: z.array(z.string().min(1)).min(1).max(1000).optional(),
    levelFilter: z.array(z.enum(LEVELS)).min(1).default([...LEVELS]),
    triggerFilter: z.array(z.enum(TRIGGERS)).min(1).default([...TRIGGERS]),
    includeFinalOutput: z.boolean().default(false),
    includeTraceSpans: z.boolean().default(false),
    includeRateLimits: z.boolean().default(false),
    includeUsageData: z.boolean().default(false),
    /** When present, only executions that make a rule fire are notified. */
    alertRules: z.array(alertRuleSchema).min(1).optional(),
  })
  .superRefine((settings, ctx) => {
    if ((settings.allWorkflows === true) === (settings.workflowIds !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['workflowIds'],
        message: 'choose the workflows: either allWorkflows: true or a workflowIds list',
      });
    }
  });

export type Channel = z.output<typeof channelSchema>;
export type AlertRule = z.output<typeof alertRuleSchema>;
export type NotificationSettings = z.output<typeof notificationSettingsSchema>;
export type NotificationSettingsInput = z.input<typeof notificationSettingsSchema>;

/** Refused settings, with every offending field named (`channels.0.url: Invalid URL`). */
export class SettingsError extends Error {
  readonly issues: { path: string; message: string }[];

  constructor(issues: { path: string; message: string }[], what = 'notification settings') {
    super(`invalid ${what}: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`);
    this.name = 'SettingsError';
    this.issues = issues;
  }
}

export function zodIssueList(error: z.ZodError, prefix = ''): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
    message: issue.message,
  }));
}

/** Validates settings; the error names each bad field and never echoes a value (secrets stay out). */
export function parseSettings(input: unknown): NotificationSettings {
  const parsed = notificationSettingsSchema.safeParse(input);
  if (!parsed.success) throw new SettingsError(zodIssueList(parsed.error));
  return parsed.data;
}
