import { describe, expect, it } from 'vitest';
import { apoPathsFromArgv } from './open-request-paths';

const existing = new Set(['/home/ana/Downloads/invoices.apo', '/home/ana/pkg/b.APO', '/opt/x.apo']);
const isFile = (path: string) => existing.has(path);

describe('apoPathsFromArgv', () => {
  it('takes an absolute .apo path after the executable', () => {
    expect(
      apoPathsFromArgv(['/opt/Apollia Desktop/apollia-desktop', '/home/ana/Downloads/invoices.apo'], '/', isFile),
    ).toEqual(['/home/ana/Downloads/invoices.apo']);
  });

  it('resolves a relative path against the launching working directory', () => {
    expect(apoPathsFromArgv(['apollia-desktop', 'Downloads/invoices.apo'], '/home/ana', isFile)).toEqual([
      '/home/ana/Downloads/invoices.apo',
    ]);
    expect(apoPathsFromArgv(['apollia-desktop', '../pkg/b.APO'], '/home/ana/Downloads', isFile)).toEqual([
      '/home/ana/pkg/b.APO',
    ]);
  });

  it('ignores flags, including Chromium switches and flags that look like .apo paths', () => {
    expect(
      apoPathsFromArgv(
        ['electron', '.', '--allow-file-access-from-files', '--open=/opt/x.apo', '-v', '/opt/x.apo'],
        '/',
        isFile,
      ),
    ).toEqual(['/opt/x.apo']);
    expect(apoPathsFromArgv(['electron', '--inspect', '-/opt/x.apo'], '/', isFile)).toEqual([]);
  });

  it('ignores names that do not end in .apo, and .apo names that are not existing files', () => {
    expect(
      apoPathsFromArgv(
        ['app', '/home/ana/Downloads/invoices.apo.txt', '/etc/passwd', '/missing.apo', 'invoices.apo'],
        '/nowhere',
        isFile,
      ),
    ).toEqual([]);
  });

  it('returns each file once, in order', () => {
    expect(apoPathsFromArgv(['app', '/opt/x.apo', '/home/ana/pkg/b.APO', '/opt/../opt/x.apo'], '/', isFile)).toEqual([
      '/opt/x.apo',
      '/home/ana/pkg/b.APO',
    ]);
  });
});
