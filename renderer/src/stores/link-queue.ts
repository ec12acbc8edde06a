/**
 * Install links in the window: one form at a time (DESIGN.md "Feeds, updates and install links": "a
 * page that opens links repeatedly gets one form at a time"). Main hands links over one at a time
 * and keeps only the latest that waited (`InstallLinkGate`); here, a link's form that arrives while
 * another link's form is open waits — only the latest — and opens when that one is closed. A file
 * opened any other way opens at once, as ever. UI flow state only.
 */
import { create } from 'zustand';
import type { SourceHandle } from '../../../shared/contract/api';
import { useFlowStore } from './flow-store';

interface LinkQueueState {
  /** The latest link's source waiting for the open link form to close, or null. */
  waiting: SourceHandle | null;
}

export const useLinkQueue = create<LinkQueueState>(() => ({ waiting: null }));

const isLink = (source: SourceHandle) => source.feed?.link === true;

/** The link form open now (the first link's tab), other than `except`. */
function openLinkForm(except: string | null): SourceHandle | null {
  return useFlowStore.getState().sources.find((source) => isLink(source) && source.id !== except) ?? null;
}

/** A source the host opened (`onOpened`): a link's waits while another link's form is open; anything else opens. */
export function openFromHost(source: SourceHandle): void {
  const flow = useFlowStore.getState();
  if (isLink(source) && !flow.sources.some((s) => s.id === source.id) && openLinkForm(source.id) !== null) {
    useLinkQueue.setState({ waiting: source });
    return;
  }
  flow.openSource(source);
}

// When the open link form closes, the link that waited opens.
useFlowStore.subscribe((state, before) => {
  const waiting = useLinkQueue.getState().waiting;
  if (waiting === null || state.sources.length >= before.sources.length) return;
  if (openLinkForm(waiting.id) !== null) return;
  useLinkQueue.setState({ waiting: null });
  state.openSource(waiting);
});
