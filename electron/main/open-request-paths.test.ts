import { describe, expect, it } from 'vitest';
import { apoPathsFromArgv } from './open-request-paths';

const existing = new Set(['/home/ana/Downloads/invoices.apo', '/home/ana/pkg/b.APO', '/opt/x.apo']);
const isFile = (path: string) => existing.has(path);

describe('apoPathsFromArgv', () => {
  it('takes a file:// URI as its local path, percent-escapes decoded, never <cwd>/file:/…', () => {
    const files = new Set(['/home/ana/Downloads/my invoices.apo', '/home/ana/Downloads/invoices.apo']);
    expect(
      apoPathsFromArgv(
        [
          '/opt/Apollia Desktop/apollia-desktop',
          'file:///home/ana/Downloads/my%20invoices.apo',
          'FILE:///home/ana/Downloads/invoices.apo',
        ],
        '/home/ana',
        (path) => files.has(path),
      ),
    ).toEqual(
      process.platform === 'win32' ? [] : ['/home/ana/Downloads/my invoices.apo', '/home/ana/Downloads/invoices.apo'],
    );
  });

  it('drops a file URI that names no local file (another host, malformed), and keeps other arguments as given', () => {
    const seen: string[] = [];
    const isAny = (path: string) => {
      seen.push(path);
      return true;
    };
    expect(apoPathsFromArgv(['x', 'file://server/share/a.apo', 'file:///a%2Fb.apo'], '/home/ana', isAny)).toEqual(
      process.platform === 'win32' ? expect.any(Array) : [],
    );
    if (process.platform !== 'win32') expect(seen).toEqual([]);
  });

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
