/**
 * The harness ids in display order, without their adapters: the CLI checks its first argument
 * against them on every start and must not load every adapter to do so. Kept equal to the
 * registry's list by names.test.ts.
 */
export const HARNESS_NAMES = ['claude', 'codex', 'opencode', 'pi', 'omp', 'copilot', 'gemini'] as const;
