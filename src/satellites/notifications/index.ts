/**
 * Completion notifications and alert rules: the settings, the `workflow.execution.completed`
 * payload, the channels, the persisted delivery queue with the spec's retry schedule, the
 * seven alert rules, and the log monitor behind `flowblocks monitor`.
 */
export {
  parseSettings,
  notificationSettingsSchema,
  channelSchema,
  alertRuleSchema,
  SettingsError,
  LEVELS,
  TRIGGERS,
  type NotificationSettings,
  type NotificationSettingsInput,
  type Channel,
  type AlertRule,
} from './settings.js';
export { buildCompletedEvent, completedLog, eventIdFor, EVENT_TYPE, type CompletedEvent, type CompletedLog, type ExecutionLog, type Limits } from './payload.js';
export { Notifier, inactivityEvent, type NotifierOptions } from './notifier.js';
export { DeliveryQueue, deliveryIdFor, type Delivery, type QueueState, type Target } from './queue.js';
export {
  RETRY_DELAYS_MS,
  MAX_ATTEMPTS,
  JITTER_RATIO,
  DELIVERY_TIMEOUT_MS,
  deliveryRetryDelayMs,
  isDeliveryRetryable,
  type DeliveryOutcome,
} from './delivery-retry.js';
export { RuleEngine, COOLDOWN_MS, initialRulesState, type RulesState, type FiredRule } from './rule-engine.js';
export { MIN_WINDOW_EXECUTIONS } from './rules.js';
export { LogMonitor, MonitorError, type MonitorOptions } from './monitor.js';
export { jsonFileStore, memoryStore, stateFilePath, type StateStore } from './store.js';
export type { NotificationState } from './state.js';
export { systemClock, type Clock } from './clock.js';
