/**
 * Install links in the window: one form at a time (DESIGN.md "Feeds, updates and install links": "a
 * page that opens links repeatedly gets one form at a time"). Main hands links over one at a time
 * and keeps only the latest that waited (`InstallLinkGate`); here, a link's form that arrives while
 * another link's form is open waits — only the latest — and opens when that one is closed
 * (`link-rule.ts`). A file opened any other way opens at once, as ever. UI flow state only.
 */
import { create } from 'zustand';
import type { SourceHandle } from '../../../shared/contract/api';
import { useFlowStore } from './flow-store';
import { linkWaits, waitingOpens } from './link-rule';

interface LinkQueueState {
  /** The latest link's source waiting for the open link form to close, or null. */
  waiting: SourceHandle | null;
}

export const useLinkQueue = create<LinkQueueState>(() => ({ waiting: null }));

/** A source the host opened (`onOpened`): a link's waits while another link's form is open; anything else opens. */
export function openFromHost(source: SourceHandle): void {
  const flow = useFlowStore.getState();
  if (linkWaits(flow.sources, source)) {
    useLinkQueue.setState({ waiting: source });
    return;
  }
  flow.openSource(source);
}

// When the open link form closes, the link that waited opens.
useFlowStore.subscribe((state, before) => {
  const waiting = useLinkQueue.getState().waiting;
  if (waiting === null || state.sources.length >= before.sources.length) return;
  if (!waitingOpens(state.sources, waiting)) return;
  useLinkQueue.setState({ waiting: null });
  state.openSource(waiting);
});
