// Loads the compiled CLI (dist-cli/mesh-workbench.cjs) with V8's code cache.
//
// A cold `mesh-workbench` process spends much of its time compiling: the 2 MB bundle at
// start, then each function the first time it runs. V8 can save the bytecode of every
// function compiled so far and take it back in a later process; Node 22 does this itself
// (module.enableCompileCache), Node 20 only through vm.Script's cached data, which is
// why the bundle is CommonJS and loaded here rather than imported.
//
// The cache sits next to the bundle. scripts/build-cli.mjs writes it after a training run
// over the samples; a process whose cache is missing or refused (another Node version)
// writes a new one when it exits, if it can. V8 checks the cache against the source's
// length only, so the file starts with a hash of the bundle it was made from.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

const HASH_BYTES = 20;

/** The cache file of a bundle. */
export function codeCachePath(bundlePath) {
  return `${bundlePath}.cache`;
}

/** The bundle's cached data, when the cache file was made from this very source. */
function readCache(cachePath, sourceHash) {
  let bytes;
  try {
    bytes = readFileSync(cachePath);
  } catch {
    return undefined;
  }
  if (bytes.length <= HASH_BYTES || !bytes.subarray(0, HASH_BYTES).equals(sourceHash)) return undefined;
  return bytes.subarray(HASH_BYTES);
}

function writeCache(cachePath, sourceHash, script) {
  try {
    // Written aside and renamed: processes running side by side never read half a file.
    const temp = `${cachePath}.${process.pid}.tmp`;
    writeFileSync(temp, Buffer.concat([sourceHash, script.createCachedData()]));
    renameSync(temp, cachePath);
  } catch {
    // A read-only install keeps working, only without the cache.
  }
}

/**
 * Evaluates the CommonJS bundle and returns its exports. `writeCache`: 'auto' writes the
 * cache at exit when there was none that fitted; 'always' (the build's training run) writes
 * it at exit in any case; 'never' leaves it alone.
 */
export function loadCompiledCli(bundlePath, { writeCache: when = 'auto' } = {}) {
  // Hashed as read, before decoding: hashing the decoded text would encode it back to UTF-8.
  const bytes = readFileSync(bundlePath);
  const sourceHash = createHash('sha1').update(bytes).digest();
  const source = bytes.toString('utf8');
  const cachePath = codeCachePath(bundlePath);
  const cachedData = readCache(cachePath, sourceHash);
  const script = new vm.Script(Module.wrap(source), { filename: bundlePath, cachedData });
  const fits = cachedData !== undefined && script.cachedDataRejected === false;
  if (when === 'always' || (when === 'auto' && !fits)) {
    // At exit, so the cache holds every function the run compiled, not only the top level.
    process.once('exit', () => writeCache(cachePath, sourceHash, script));
  }
  const module = { exports: {} };
  const wrapper = script.runInThisContext();
  wrapper.call(module.exports, module.exports, createRequire(bundlePath), module, bundlePath, dirname(bundlePath));
  return module.exports;
}
