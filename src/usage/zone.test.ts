import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { localTimeZone, terminalTimeZone } from './zone.ts';
import type { ZonePorts } from './zone.ts';

/** Ports over a made-up machine: these zoneinfo files exist, /etc/localtime links to `link`. */
function ports(env: NodeJS.ProcessEnv, link: string | undefined, files = ['Europe/Paris', 'Etc/UTC', 'Asia/Kolkata', 'America/New_York']): ZonePorts {
  const have = new Set(files.map((f) => `/usr/share/zoneinfo/${f}`));
  return { env, readLink: (p) => (p === '/etc/localtime' ? link : undefined), exists: (p) => have.has(p) };
}

describe('the terminal\'s time zone, read as the C library reads it', () => {
  it('takes TZ when it names a zoneinfo file, with or without a leading colon or as a path', () => {
    assert.equal(terminalTimeZone(ports({ TZ: 'Asia/Kolkata' }, '/usr/share/zoneinfo/Europe/Paris')), 'Asia/Kolkata');
    assert.equal(terminalTimeZone(ports({ TZ: ':Europe/Paris' }, undefined)), 'Europe/Paris');
    assert.equal(terminalTimeZone(ports({ TZ: '/usr/share/zoneinfo/America/New_York' }, undefined)), 'America/New_York');
  });

  it('an empty TZ is UTC; the UTC aliases are UTC', () => {
    assert.equal(terminalTimeZone(ports({ TZ: '' }, '/usr/share/zoneinfo/Europe/Paris')), 'UTC');
    assert.equal(terminalTimeZone(ports({}, '/usr/share/zoneinfo/Etc/UTC')), 'UTC');
  });

  it('without TZ, follows /etc/localtime into zoneinfo (relative links and posix/ trees too)', () => {
    assert.equal(terminalTimeZone(ports({}, '../usr/share/zoneinfo/Europe/Paris')), 'Europe/Paris');
    assert.equal(terminalTimeZone(ports({}, '/usr/share/zoneinfo/posix/Asia/Kolkata')), 'Asia/Kolkata');
  });

  it('leaves what it cannot read that way to Intl: a POSIX rule, a name with no file, a copied /etc/localtime, a path escaping zoneinfo', () => {
    for (const p of [ports({ TZ: 'CET-1CEST,M3.5.0,M10.5.0/3' }, undefined), ports({ TZ: 'Mars/Olympus' }, undefined), ports({}, undefined), ports({ TZ: '../../etc/passwd' }, undefined)]) {
      assert.equal(terminalTimeZone(p), localTimeZone());
    }
  });
});
