export { createSender, type Sender, type SenderOptions, type SendAnswer, type SendOptions } from './service.ts';
export { chooseChannel, type ChannelFacts, type ChannelPlan, type SendChannel } from './channel.ts';
export { checkPrompt, excerpt, MAX_PROMPT_BYTES, MAX_RESUME_PROMPT_BYTES, type PromptCheck } from './text.ts';
export type { PaneInput, PaneOpener, PaneTarget } from './ports.ts';
