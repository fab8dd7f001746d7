/**
 * The part of the WebAssembly JavaScript API the line scanner uses. TypeScript declares it only with the
 * DOM library, which the daemon's code does not load; Node has it as a global.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports: Record<string, unknown>);
    readonly exports: Record<string, unknown>;
  }
  interface Memory {
    readonly buffer: ArrayBuffer;
  }
}
