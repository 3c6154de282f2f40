// Starts the real petstore binary on port 0 with a fresh database in a temp folder and a fixed
// admin key, and reads the address it prints. One server per test file.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');

/** The admin key the store is created with (PETSTORE_ADMIN_KEY before the first start). */
export const ADMIN_KEY = 'ui-test-admin-4f9c2d7e81b0a6c35e9d1f7a2b8c4e60';

/**
 * @typedef {object} RunningServer
 * @property {string} base  http://127.0.0.1:PORT (https:// with --tls)
 * @property {() => Promise<void>} stop  stops it and removes its database
 * @property {() => Promise<void>} restart  stops it and starts it again on the same address and database
 * @property {() => Promise<void>} kill  kills its process (SIGKILL), as a power cut or a crash would
 * @property {() => Promise<void>} resume  starts it again after `kill`, on the same address and database
 * @property {() => string} log  what it printed
 */

/**
 * @param {string[]} [extraArgs]  more `petstore serve` flags (`--tls`)
 * @returns {Promise<RunningServer>}
 */
export async function startServer(extraArgs = []) {
  const bin = process.env.PETSTORE_BIN || path.join(repoRoot, 'target/debug/petstore');
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-ui-'));
  const db = path.join(dir, 'store.sqlite');
  let output = '';
  let { child, base } = await spawnServer(bin, db, '127.0.0.1:0', (c) => { output += c; }, extraArgs);

  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  return {
    base,
    log: () => output,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async resume() {
      ({ child } = await spawnServer(bin, db, new URL(base).host, (c) => { output += c; }, extraArgs));
    },
    async restart() {
      await halt();
      ({ child } = await spawnServer(bin, db, new URL(base).host, (c) => { output += c; }, extraArgs));
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * @param {string} bin
 * @param {string} db
 * @param {string} bind
 * @param {(chunk: string) => void} record
 * @param {string[]} extraArgs
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, base: string }>}
 */
function spawnServer(bin, db, bind, record, extraArgs) {
  const child = spawn(bin, ['serve', '--db', db, '--bind', bind, ...extraArgs], {
    env: { ...process.env, PETSTORE_ADMIN_KEY: ADMIN_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (c) => { output += c; record(String(c)); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`petstore did not report its address within 30 s:\n${output}`)), 30_000);
    let buf = '';
    child.stdout?.on('data', (chunk) => {
      buf += chunk;
      output += chunk;
      record(String(chunk));
      const m = /petstore listening on (https?:\/\/[^\s]+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1].replace(/\/$/, '') });
      }
    });
    child.on('error', (e) => { clearTimeout(timer); reject(new Error(`cannot start ${bin}: ${e.message}`)); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`petstore exited with ${code} before listening:\n${output}`)); });
  });
}
