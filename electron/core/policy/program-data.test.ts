/**
 * The Windows machine policy's folder does not move with the environment (DESIGN.md "Managed policy"): it is the
 * registry's known-folder value, read by `reg.exe` at its absolute path, and `%ProgramData%` is never asked.
 */
import { describe, expect, it } from 'vitest';
import { machinePolicyPath, policyLocations } from './read-policy';
import { DEFAULT_PROGRAM_DATA, PROGRAM_DATA_KEY, parseRegQuery, programDataFolder, REG_EXE } from './program-data';

const OUTPUT = `\r\n${PROGRAM_DATA_KEY}\r\n    Common AppData    REG_SZ    E:\\ProgramData\r\n\r\n`;

describe('the ProgramData folder, found through the system', () => {
  it('asks reg.exe by its absolute path for the known folder, and reads its value', () => {
    const calls: [string, string[]][] = [];
    const folder = programDataFolder((file, args) => {
      calls.push([file, args]);
      return OUTPUT;
    });
    expect(folder).toBe('E:\\ProgramData');
    expect(calls).toEqual([[REG_EXE, ['query', PROGRAM_DATA_KEY, '/v', 'Common AppData']]]);
    expect(REG_EXE).toMatch(/^C:\\Windows\\System32\\reg\.exe$/);
  });

  it('an unreadable registry or an unexpanded value gives the default, never the environment', () => {
    expect(
      programDataFolder(() => {
        throw new Error('no reg');
      }),
    ).toBe(DEFAULT_PROGRAM_DATA);
    expect(parseRegQuery('    Common AppData    REG_EXPAND_SZ    %ProgramData%\r\n')).toBeNull();
    expect(parseRegQuery('    Common AppData    REG_SZ    relative\\path\r\n')).toBeNull();
  });

  it('%ProgramData% set elsewhere does not move the machine policy', () => {
    const env = { ProgramData: 'C:\\Users\\me\\fake' };
    const path = machinePolicyPath('win32', env, () => programDataFolder(() => OUTPUT));
    expect(path).toBe('E:\\ProgramData\\Apollia Desktop\\policy.json');
    expect(path).not.toContain('fake');
    // On this (non-Windows) machine the location is the system's, whatever the variable says.
    expect(policyLocations(env).machine).toBe(policyLocations({}).machine);
  });
});
