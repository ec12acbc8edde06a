/**
 * What one `agents[].defaults.access` entry is, and whether a call to it asks first.
 *
 * The rule this form implements (spec `[[mcp_servers]]`: "whether a call to one of its tools asks
 * first is decided on the action family of that tool"; "Every family except read makes the access
 * sensitive"): a tool whose family is `read` runs without asking; a sensitive family asks first;
 * and a tool whose family this app cannot know before it runs (an MCP tool, an unknown name, another
 * agent) asks first too, because nothing proves it only reads.
 */
import type { ActionFamily, ApolliaManifest } from '../../../../shared/apollia-manifest';
import { apolliaNativeTool } from '../../../../shared/catalogues';
import { accessFamily, asksFirst } from '../../../../shared/consent';

export interface AccessRow {
  entry: string;
  kind: 'native' | 'mcp' | 'pkg' | 'agent' | 'workflow' | 'unknown';
  /** What the entry is, in words. */
  what: string;
  family: ActionFamily | 'unknown';
  asks: boolean;
}

/** Classifies one default access entry of `manifest`. */
export function accessRow(entry: string, manifest: ApolliaManifest): AccessRow {
  // The family comes from the same function the store records it with, so the form and the store agree.
  const family = accessFamily(manifest, entry);
  const finish = (row: Omit<AccessRow, 'asks' | 'family'>): AccessRow => ({ ...row, family: family ?? 'unknown', asks: asksFirst(family) });
  if (entry.startsWith('mcp:')) {
    const [server = '', tool = ''] = entry.slice(4).split('/');
    return finish({ entry, kind: 'mcp', what: `Tool ${tool} of the MCP server ${server}` });
  }
  if (entry.startsWith('pkg:')) {
    const [pkg = '', name = ''] = entry.slice(4).split('/');
    const tool = pkg === manifest.package.name ? manifest.tools?.find((t) => t.name === name) : undefined;
    return finish({ entry, kind: 'pkg', what: tool ? `This package's tool ${name}: ${tool.description}` : `Tool ${name} of package ${pkg}` });
  }
  if (entry.startsWith('agent:')) {
    const id = entry.slice(6);
    const agent = manifest.agents?.find((a) => a.id === id);
    return finish({ entry, kind: 'agent', what: `Can hand work to the agent ${agent?.name ?? id}` });
  }
  if (entry.startsWith('workflow:')) {
    const [pkg = '', name = ''] = entry.slice(9).split('/');
    const workflow = pkg === manifest.package.name ? manifest.workflows?.find((w) => w.name === name) : undefined;
    return finish({ entry, kind: 'workflow', what: workflow ? `Starts the workflow ${name}: ${workflow.description}` : `Starts the workflow ${name} of package ${pkg}` });
  }
  const native = apolliaNativeTool(entry);
  if (native) return finish({ entry, kind: 'native', what: `Built-in tool: ${native.description}` });
  return finish({ entry, kind: 'unknown', what: 'A built-in tool this app does not know' });
}
