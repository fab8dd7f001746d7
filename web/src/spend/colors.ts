/** A part's colour: a harness's own mark colour, else a stable colour from a small palette by name. */
import { harnessMark } from '../harnesses.ts';

const PALETTE = ['#4c6ef5', '#12b886', '#f59f00', '#e64980', '#7950f2', '#15aabf', '#fa5252', '#82c91e', '#fd7e14', '#868e96'];

export function colorOf(split: string, key: string): string {
  if (split === 'harness') {
    const c = harnessMark(key).color;
    if (c) return c;
  }
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) >>> 0;
  return PALETTE[h % PALETTE.length] ?? '#868e96';
}
