import { describe, expect, it } from 'vitest';
import { chunkBytesFor, FILE_CHUNK_BYTES, GUNZIP_CHUNK_BYTES, MIN_CHUNK_BYTES } from './limits';

describe('chunkBytesFor (stream buffers sized to the input)', () => {
  it('gives a 1 KiB package the smallest chunk, not 1 MiB', () => {
    expect(chunkBytesFor(1024, FILE_CHUNK_BYTES)).toBe(MIN_CHUNK_BYTES);
    expect(chunkBytesFor(1024, GUNZIP_CHUNK_BYTES, 4)).toBe(MIN_CHUNK_BYTES);
    expect(chunkBytesFor(0, GUNZIP_CHUNK_BYTES, 4)).toBe(MIN_CHUNK_BYTES);
  });

  it('rounds up to a power of two that holds the (inflated) file', () => {
    expect(chunkBytesFor(20_000, FILE_CHUNK_BYTES)).toBe(32 * 1024);
    expect(chunkBytesFor(20_000, GUNZIP_CHUNK_BYTES, 4)).toBe(128 * 1024);
  });

  it('never goes over the measured best for large inputs', () => {
    expect(chunkBytesFor(128 * 1024 * 1024, FILE_CHUNK_BYTES)).toBe(FILE_CHUNK_BYTES);
    expect(chunkBytesFor(300 * 1024, GUNZIP_CHUNK_BYTES, 4)).toBe(GUNZIP_CHUNK_BYTES);
  });
});
