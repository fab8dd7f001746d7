// The fake model server: real CLIs talk to it over their own wire protocols; only the model is fake.
export { startFakeModel } from './server.ts';
export type { FakeModel, FakeModelOptions } from './server.ts';
export type { FakeRequest, Protocol, Reply, RequestHandler, SideCallKind, ToolCall, Usage } from './types.ts';
export { DEFAULT_USAGE } from './usage.ts';
export { DEFAULT_SIDE_CALL_REPLIES } from './side-calls.ts';
export { endsWithToolResult, lastUserText, systemText } from './inspect.ts';
export { keywordHandler, shellCall } from './keywords.ts';
export type { KeywordHandlerOptions } from './keywords.ts';
export { postModel } from './wire-client.ts';
export type { WireEvent, WireResponse } from './wire-client.ts';
