/** What every CLI command module receives. */
export interface CommandContext {
  /** Positional arguments after the command name. */
  args: string[];
  /** Parsed --flags (string values, or true for booleans). */
  flags: Record<string, string | boolean | undefined>;
  env: NodeJS.ProcessEnv;
  /** True when stdout is a terminal (human formats are allowed). */
  tty: boolean;
}

export interface CommandModule {
  run(ctx: CommandContext): Promise<number>;
}
