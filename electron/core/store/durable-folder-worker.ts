/**
 * The code a {@link DurableFolder}'s worker thread runs, as a string (an eval'd worker: no second
 * file to find in a bundle or an asar archive, as with the checker's boot, `bounded/worker-boot.ts`).
 * It has no input but the folder's path, the names and contents the host gives it, and the test
 * hooks below; it never evaluates what it writes.
 *
 * One batch at a time, with blocking calls (cheap on its own thread, and no round trip through the
 * main thread per call): each file is written to a temp name (`wx`, mode 0600; the folder is made
 * when missing), fsynced, closed and renamed in; a file that fails has its temp file removed and
 * fails alone. Then one fsync of the folder covers every rename of the batch (a group commit): the
 * folder's handle is kept open, and when the path names another folder since (it was replaced), the
 * new one is synced. Where a folder cannot be opened (Windows) it has no fsync of its own.
 *
 * A file's `op` may also be `put` (written and renamed in, no fsync of its own nor of the folder: the
 * intake journal is the durable truth for it) or `sync` (a file put earlier is fsynced now, then the
 * folder, in the background; ENOENT when it was taken meanwhile).
 *
 * Message in: `{ files: [{ id, name, data, op? }] }` (a turn's writes), or `'close'`. A batch is the message
 * that woke the worker and every one waiting behind it on the port (`receiveMessageOnPort`). Message
 * out: `{ ids, results: (null | { code, message })[], trace?: string[] }`, one result per id: null once
 * the file and its name are durable; `'closed'` once the folder's handle is closed.
 *
 * Test hooks (`workerData.faults`, never set by the app): `failData`: the first file whose content
 * holds this text fails as an EIO write; `gate`: an Int32Array on shared memory, each folder fsync waits
 * until its first cell counts past the fsyncs already started (the test opens it); `trace`: every
 * step is reported.
 */
export const DURABLE_FOLDER_WORKER = `
'use strict';
const { parentPort, receiveMessageOnPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const dir = workerData.dir;
const faults = workerData.faults || {};
// The errors of opening a folder where folders cannot be opened or fsynced (FOLDER_SYNC_UNSUPPORTED in atomic-file.ts).
const UNSUPPORTED = workerData.folderSyncUnsupported;
let held = null;
let noFolderSync = false;
let syncs = 0;
let trace = null;

function problem(error) {
  return { code: String((error && error.code) || 'EIO'), message: String((error && error.message) || error) };
}

function openNew(temp) {
  try {
    return fs.openSync(temp, 'wx', 0o600);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return fs.openSync(temp, 'wx', 0o600);
  }
}

function writeFile(file) {
  const temp = path.join(dir, '.' + file.name + '.tmp-' + process.pid + '-' + randomUUID());
  try {
    const fd = openNew(temp);
    try {
      if (faults.failData && file.data.includes(faults.failData)) {
        faults.failData = null;
        throw Object.assign(new Error('injected'), { code: 'EIO' });
      }
      const bytes = Buffer.from(file.data, 'utf8');
      for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
      if (file.op !== 'put') fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (trace) trace.push((file.op === 'put' ? 'put ' : 'synced ') + path.basename(temp));
    fs.renameSync(temp, path.join(dir, file.name));
    if (trace) trace.push('renamed ' + file.name);
    return null;
  } catch (error) {
    try { fs.unlinkSync(temp); } catch {}
    return problem(error);
  }
}

// A file written earlier by a put, fsynced now: gone (ENOENT) when it was taken meanwhile.
function syncFile(file) {
  try {
    const fd = fs.openSync(path.join(dir, file.name), 'r');
    try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
    if (trace) trace.push('file-synced ' + file.name);
    return null;
  } catch (error) {
    return problem(error);
  }
}

function forget() {
  if (held) { try { fs.closeSync(held.fd); } catch {} }
  held = null;
}

function openFolder() {
  forget();
  let fd;
  try {
    fd = fs.openSync(dir, 'r');
  } catch (error) {
    if (!UNSUPPORTED.includes(error.code)) throw error;
    noFolderSync = true;
    return null;
  }
  const { ino, dev } = fs.fstatSync(fd);
  held = { fd, ino, dev };
  return held;
}

function syncFolder() {
  if (noFolderSync) return;
  const n = syncs++;
  if (trace) trace.push('dir-start ' + n);
  if (faults.gate) Atomics.wait(faults.gate, 0, n);
  try {
    const folder = held || openFolder();
    if (folder) {
      fs.fsyncSync(folder.fd);
      const now = fs.statSync(dir);
      if (now.ino !== folder.ino || now.dev !== folder.dev) {
        const fresh = openFolder();
        if (fresh) fs.fsyncSync(fresh.fd);
      }
    }
  } catch (error) {
    forget();
    throw error;
  }
  if (trace) trace.push('dir-done ' + n);
}

// What came while the last batch was written joins this one: the writes waiting on the port are taken at once.
function batchFrom(first) {
  const files = first.files.slice();
  for (let next = receiveMessageOnPort(parentPort); next; next = receiveMessageOnPort(parentPort)) {
    if (next.message === 'close') { closing = true; break; }
    files.push(...next.message.files);
  }
  return files;
}

let closing = false;
parentPort.on('message', (message) => {
  if (message !== 'close') {
    trace = faults.trace ? [] : null;
    const files = batchFrom(message);
    const results = files.map((file) => (file.op === 'sync' ? syncFile(file) : writeFile(file)));
    if (results.some((result, i) => result === null && files[i].op !== 'put')) {
      try {
        syncFolder();
      } catch (error) {
        for (let i = 0; i < results.length; i++) if (results[i] === null && files[i].op !== 'put') results[i] = problem(error);
      }
    }
    const ids = files.map((file) => file.id);
    parentPort.postMessage(trace ? { ids, results, trace } : { ids, results });
  }
  if (message === 'close' || closing) { forget(); parentPort.postMessage('closed'); }
});
`;
