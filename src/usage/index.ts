export { createUsageService, type UsageService, type UsageServiceOptions } from './service.ts';
export { createBudgetWatch, type BudgetWatch, type BudgetWatchOptions, type BudgetSettings } from './budget.ts';
export { parseUsageQuery } from './query.ts';
export { buildReport, type ReportInput } from './report.ts';
export { createZone, isTimeZone, localTimeZone, parseDate, type Zone } from './zone.ts';
export { USAGE_GROUPS, USAGE_SPLITS } from './types.ts';
export type { SessionFacts, UsageFigures, UsageGroup, UsagePart, UsageQuery, UsageRecord, UsageReport, UsageRepository, UsageRollupRow, UsageRow, UsageSplit, UsageTokens } from './types.ts';
