export { createPager, type Pager, type PagerOptions, type PagerSettings, type Caller, type WaitOutcome, type WaitOptions } from './pager.ts';
export { resolveAttribution, harnessOfClient, type AttributionHints, type SessionLookup } from './attribution.ts';
// registerPagerTools is imported from './mcp-tools.ts' by the lazily loaded MCP route only (it pulls in zod).
export type { PagerToolsOptions, ToolExtra } from './mcp-tools.ts';
export { createNotifier, toNotification, describeSession, type Notifier, type NotifierOptions } from './notifier.ts';
export { isPageId, newPageId } from './page-id.ts';
export { LIMITS, checkAsk, checkNotify, checkAnswer } from './validate.ts';
export { createDesktopChannel, type DesktopChannelOptions, type RunResult } from './channels/desktop.ts';
export { createWebhookChannel, fetchPost, ntfyRequest, type WebhookChannelOptions, type PostFn, type PostRequest } from './channels/webhook.ts';
export type { NotificationChannel, PageNotification, SendResult } from './channels/channel.ts';
export {
  PAGE_KINDS, PAGE_STATUSES, URGENCIES, NOTICE_LEVELS,
  type Page, type PageKind, type PageStatus, type PageFilter, type PageAnswer, type Urgency, type NoticeLevel,
  type Attribution, type AttributionVia, type DeliveryRecord, type PagesRepository, type Transition,
} from './types.ts';
