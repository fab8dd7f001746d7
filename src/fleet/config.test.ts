// Membership files in MUSTER_HOME: the URL 0600 and atomically written, a stable host id created once,
// the environment first.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fleetFiles, loadOrCreateHostId, readFleetConfig, removeFleetConfig, writeFleetConfig } from './config.ts';
import { isHostId } from './types.ts';
import { MusterError } from '../errors/index.ts';

const withHome = (fn: (home: string) => void) => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-fleet-config-'));
  try {
    fn(home);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
};

it('writes the membership 0600, reads it back, and forgets it', () => withHome((home) => {
  const files = fleetFiles(home);
  assert.equal(readFleetConfig(files, {}), null);
  writeFleetConfig(files, { url: 'postgres://u:pw@h/d', name: 'laptop' });
  assert.equal(fs.statSync(files.config).mode & 0o777, 0o600);
  assert.deepEqual(readFleetConfig(files, {}), { url: 'postgres://u:pw@h/d', name: 'laptop', source: 'file' });
  assert.deepEqual(fs.readdirSync(home), ['fleet.json'], 'no staging file left behind');
  removeFleetConfig(files);
  assert.equal(readFleetConfig(files, {}), null);
}));

it('MUSTER_FLEET_URL (and MUSTER_FLEET_NAME) take the place of the file', () => withHome((home) => {
  const files = fleetFiles(home);
  writeFleetConfig(files, { url: 'postgres://file/d', name: 'from-file' });
  assert.deepEqual(readFleetConfig(files, { MUSTER_FLEET_URL: 'postgres://env/d', MUSTER_FLEET_NAME: 'gpu-box' }), { url: 'postgres://env/d', name: 'gpu-box', source: 'env' });
  assert.equal(readFleetConfig(files, { MUSTER_FLEET_URL: 'postgres://env/d' })?.source, 'env');
}));

it('a damaged file is reported with what to do, never guessed at', () => withHome((home) => {
  const files = fleetFiles(home);
  fs.writeFileSync(files.config, '{"url": 1}');
  assert.throws(() => readFleetConfig(files, {}), (e: unknown) => e instanceof MusterError && e.code === 'config_malformed' && /fleet leave/.test(e.message));
}));

it('the host id is created once, 0600, and stays', () => withHome((home) => {
  const files = fleetFiles(home);
  const id = loadOrCreateHostId(files);
  assert.ok(isHostId(id), id);
  assert.equal(fs.statSync(files.hostId).mode & 0o777, 0o600);
  assert.equal(loadOrCreateHostId(files), id);
  fs.writeFileSync(files.hostId, 'garbage');
  assert.notEqual(loadOrCreateHostId(files), 'garbage', 'a damaged id is replaced by a valid one');
}));
