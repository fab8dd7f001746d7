/**
 * The session id shape most harnesses use: a UUID. Each adapter states its exact format (`isValidId`);
 * anything else is refused before it reaches a source, the store or a command. Anchored; a trailing
 * newline never passes.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(id: string): boolean {
  return UUID.test(id) && !id.includes('\n');
}
