/**
 * Built-in emoji packs (BEHAVIOUR E "built-in emoji packs per harness"). Each harness gets its own
 * family of characters so a glance at the board tells harnesses apart before reading a word; a
 * session picks one of its family by a stable hash of its id, so it keeps its face across reloads.
 */
import type { Harness } from '../core/session.ts';
import type { Character, Pack } from './types.ts';

const CRITTERS: Record<Harness, [string, string][]> = {
  claude: [['fox', '🦊'], ['owl', '🦉'], ['octopus', '🐙'], ['hedgehog', '🦔'], ['otter', '🦦'], ['crab', '🦀'], ['lion', '🦁'], ['koala', '🐨']],
  codex: [['robot', '🤖'], ['alien', '👾'], ['rocket', '🚀'], ['satellite', '🛰️'], ['gear', '⚙️'], ['ufo', '🛸']],
  opencode: [['penguin', '🐧'], ['whale', '🐳'], ['dolphin', '🐬'], ['turtle', '🐢'], ['seal', '🦭'], ['shark', '🦈']],
  pi: [['dragon', '🐉'], ['unicorn', '🦄'], ['phoenix', '🐦‍🔥'], ['wolf', '🐺'], ['eagle', '🦅'], ['tiger', '🐯']],
  omp: [['bee', '🐝'], ['butterfly', '🦋'], ['ladybug', '🐞'], ['snail', '🐌'], ['frog', '🐸'], ['parrot', '🦜']],
};

const PLAIN: Record<Harness, string> = { claude: '🟠', codex: '🟢', opencode: '🔵', pi: '🟣', omp: '🟡' };

function critters(): Character[] {
  const out: Character[] = [];
  for (const [harness, list] of Object.entries(CRITTERS) as [Harness, [string, string][]][]) {
    for (const [name, emoji] of list) out.push({ id: `${harness}-${name}`, kind: 'emoji', name, emoji, harness });
  }
  return out;
}

export const BUILTIN_PACKS: readonly Pack[] = [
  { id: 'critters', name: 'Critters', builtin: true, characters: critters() },
  {
    id: 'dots',
    name: 'Dots',
    builtin: true,
    characters: (Object.entries(PLAIN) as [Harness, string][]).map(([harness, emoji]) => ({ id: `${harness}-dot`, kind: 'emoji', name: `${harness} dot`, emoji, harness })),
  },
];

export const DEFAULT_ACTIVE_PACK = 'critters';

export function isBuiltinPack(id: string): boolean {
  return BUILTIN_PACKS.some((p) => p.id === id);
}
