/**
 * UI flow state only (STYLE.md "State in the renderer"): which screen is shown and which sources
 * are open, each with its own consent flow. Nothing here is app data: that lives in react-query.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import type { SourceHandle } from '../../../shared/contract/api';

/** Marks a source's flow ended once its screen shows (a refusal, an install or apply done). */
export function useMarkFinished(sourceId: string, how: 'refused' | 'done'): void {
  const markFinished = useFlowStore((s) => s.markFinished);
  useEffect(() => markFinished(sourceId, how), [markFinished, sourceId, how]);
}

export type MainView = 'open' | 'dashboard' | 'updates' | 'activity' | 'settings' | 'runs' | 'policy';

export interface FlowState {
  view: MainView;
  /** Sources opened in this window, in order; each has its own consent or apply flow. */
  sources: SourceHandle[];
  /** The source whose flow is shown, or null for `view`. */
  activeSourceId: string | null;
  /** Shows a main view (and leaves the open flows where they are). */
  show: (view: MainView) => void;
  /** Adds a source (once) and shows its flow. */
  openSource: (source: SourceHandle) => void;
  showSource: (sourceId: string) => void;
  /**
   * Closes a flow. Closing the one in view shows `then` (default the Open screen); closing a tab in the background
   * leaves the form in view where it is.
   */
  closeSource: (sourceId: string, then?: MainView) => void;
  /** Opened sources whose flow has ended: refused, or installed or applied (their tabs can be cleared at once). */
  finished: Readonly<Record<string, 'refused' | 'done'>>;
  /** Marks a source's flow as ended. */
  markFinished: (sourceId: string, how: 'refused' | 'done') => void;
  /** Closes every finished tab; the one in view, if among them, gives way to the Open screen. */
  closeFinished: () => void;
  /** An agent the dashboard brings into view and focuses once shown (then cleared), or null. */
  revealAgent: string | null;
  /** Shows the dashboard with this agent's card in view (the open flows stay where they are). */
  showAgent: (agentId: string) => void;
  /** The dashboard has brought the agent into view. */
  agentRevealed: () => void;
  /** The trigger whose waiting runs the Runs view shows, or null for every trigger's. */
  runsTrigger: string | null;
  /** Shows the Runs view: every waiting run, or one trigger's. */
  showRuns: (trigger?: string | null) => void;
  /**
   * A missing MCP server Settings was asked to save (its name pre-filled in the form), and the tab that asked (a way
   * back to it), or null. Cleared by any other way to a view or a tab.
   */
  serverRequest: ServerRequest | null;
  /** Shows Settings with the form for `server`, remembering the tab in view to come back to. */
  askForServer: (server: string) => void;
}

/** A missing MCP server asked for by an open tab: its name, and the tab. */
export interface ServerRequest {
  server: string;
  sourceId: string | null;
}

export const useFlowStore = create<FlowState>((set) => ({
  view: 'open',
  sources: [],
  activeSourceId: null,
  show: (view) => set({ view, activeSourceId: null, serverRequest: null }),
  openSource: (source) =>
    set((state) => ({
      sources: state.sources.some((s) => s.id === source.id) ? state.sources : [...state.sources, source],
      activeSourceId: source.id,
    })),
  showSource: (sourceId) => set({ activeSourceId: sourceId, serverRequest: null }),
  closeSource: (sourceId, then = 'open') =>
    set((state) => {
      const sources = state.sources.filter((s) => s.id !== sourceId);
      const { [sourceId]: _closed, ...finished } = state.finished;
      if (state.activeSourceId !== null && state.activeSourceId !== sourceId) return { sources, finished };
      return { sources, finished, activeSourceId: null, view: then };
    }),
  finished: {},
  markFinished: (sourceId, how) =>
    set((state) => (state.finished[sourceId] === how ? state : { finished: { ...state.finished, [sourceId]: how } })),
  closeFinished: () =>
    set((state) => {
      const sources = state.sources.filter((s) => !Object.hasOwn(state.finished, s.id));
      const inView = state.activeSourceId !== null && Object.hasOwn(state.finished, state.activeSourceId);
      return inView ? { sources, finished: {}, activeSourceId: null, view: 'open' } : { sources, finished: {} };
    }),
  revealAgent: null,
  showAgent: (agentId) => set({ view: 'dashboard', activeSourceId: null, revealAgent: agentId }),
  agentRevealed: () => set({ revealAgent: null }),
  runsTrigger: null,
  showRuns: (trigger = null) => set({ view: 'runs', activeSourceId: null, runsTrigger: trigger }),
  serverRequest: null,
  askForServer: (server) =>
    set((state) => ({
      view: 'settings',
      activeSourceId: null,
      serverRequest: { server, sourceId: state.activeSourceId },
    })),
}));
