import {
  Archive,
  Building2,
  FolderOpen,
  History,
  LayoutDashboard,
  RefreshCw,
  Settings as SettingsIcon,
  X,
} from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, type RefObject, Suspense, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { tabLabels } from '../../shared/words/tab-labels';
import { bridge, toApiError } from '../api/bridge';
import { queryKeys } from '../api/query-keys';
import { focusHeadingWhenShown } from './components/focus-heading';
import { SandboxWarning } from './components/SandboxWarning';
import { ErrorPanel, Loading } from './components/Status';
import { OpenScreen } from './screens/OpenScreen';
import { SourceScreen } from './screens/SourceScreen';
import { useApplyStore } from './stores/apply-store';
import { useConsentStore } from './stores/consent-store';
import { useFlowStore, type MainView } from './stores/flow-store';
import { openFromHost } from './stores/link-queue';

// Screens not on the first paint load when first shown: the first screen's script holds
// only the Open screen and the consent flow of a package.
const DashboardScreen = lazy(() => import('./screens/DashboardScreen').then((m) => ({ default: m.DashboardScreen })));
const SettingsScreen = lazy(() => import('./screens/SettingsScreen').then((m) => ({ default: m.SettingsScreen })));
const ActivityScreen = lazy(() => import('./screens/ActivityScreen').then((m) => ({ default: m.ActivityScreen })));
const PolicyScreen = lazy(() => import('./screens/PolicyScreen').then((m) => ({ default: m.PolicyScreen })));
const RunsScreen = lazy(() => import('./screens/RunsScreen').then((m) => ({ default: m.RunsScreen })));
const UpdatesScreen = lazy(() => import('./screens/updates/UpdatesScreen').then((m) => ({ default: m.UpdatesScreen })));

const NAV: { view: MainView; label: string; icon: typeof FolderOpen }[] = [
  { view: 'open', label: 'Open', icon: FolderOpen },
  { view: 'dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { view: 'updates', label: 'Updates', icon: RefreshCw },
  { view: 'activity', label: 'Activity', icon: History },
  { view: 'settings', label: 'Settings', icon: SettingsIcon },
  { view: 'policy', label: 'Policy', icon: Building2 },
];

/** The window: a nav, the open flows, and the screen in view. Files dropped anywhere open a flow. */
export function App() {
  const { view, sources, activeSourceId, openSource } = useFlowStore();
  const [dropError, setDropError] = useState<unknown>(null);
  const [dragging, setDragging] = useState(false);
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main, activeSourceId ?? `view:${view}`);
  useForgetClosedSources(sources);
  useOpenedFiles();

  const onDrop = async (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    setDropError(null);
    const files = Array.from(event.dataTransfer.files);
    for (const file of files) {
      try {
        const api = bridge();
        const result = await api.openDropped(file);
        if (result.ok) openSource(result.value);
        else setDropError(result.error);
      } catch (error) {
        setDropError(toApiError(error));
      }
    }
  };

  return (
    <div
      className={`app${dragging ? ' app-dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (event.currentTarget === event.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <p className="brand">
          <Archive aria-hidden="true" size={20} /> Apollia Desktop
        </p>
        <MainNav />
      </header>
      <main id="main" className="app-main" tabIndex={-1} ref={main}>
        <SandboxWarning />
        {dropError ? <ErrorPanel error={dropError} title="The dropped file could not be opened" /> : null}
        <Suspense fallback={<Loading label="Loading…" />}>
          <ScreenInView />
        </Suspense>
      </main>
      {dragging ? (
        <div className="drop-overlay" aria-hidden="true">
          Drop a package to check it
        </div>
      ) : null}
    </div>
  );
}

/** Focus moves to the new screen's heading on every navigation (not on the first paint). */
function useFocusOnNavigation(main: RefObject<HTMLElement | null>, screenKey: string): void {
  const firstScreen = useRef(true);
  useEffect(() => {
    void screenKey;
    if (firstScreen.current) {
      firstScreen.current = false;
      return undefined;
    }
    return focusHeadingWhenShown(main.current);
  }, [main, screenKey]);
}

/**
 * A closed source's check is forgotten: opened again (main answers the same id for the same path), it is checked
 * again, never shown from before.
 */
function useForgetClosedSources(sources: readonly { id: string }[]): void {
  const client = useQueryClient();
  const shownIds = useRef<string[]>([]);
  useEffect(() => {
    const open = new Set(sources.map((s) => s.id));
    for (const id of shownIds.current) {
      if (open.has(id)) continue;
      client.removeQueries({ queryKey: queryKeys.inspection(id) });
      useApplyStore.getState().drop(id);
      useConsentStore.getState().drop(id);
    }
    shownIds.current = [...open];
  }, [sources, client]);
}

/** Files the operating system opens with the app (a double-click, `open-file`) each open a flow. */
function useOpenedFiles(): void {
  const subscribed = useRef(false);
  useEffect(() => {
    if (subscribed.current) return;
    subscribed.current = true;
    try {
      // An install link's form waits while another link's is open (one form at a time: stores/link-queue.ts).
      const unsubscribe = bridge().onOpened(openFromHost);
      return () => {
        subscribed.current = false;
        if (typeof unsubscribe === 'function') unsubscribe();
      };
    } catch {
      return undefined;
    }
  }, []);
}

/** The main nav: the four views, then a tab for each opened package. */
function MainNav() {
  const { view, sources, activeSourceId, show } = useFlowStore();
  return (
    <nav aria-label="Main">
      <ul className="nav-list">
        {NAV.map(({ view: v, label, icon: Icon }) => (
          <li key={v}>
            <button
              type="button"
              className="nav-item"
              aria-current={activeSourceId === null && view === v ? 'page' : undefined}
              onClick={() => show(v)}
            >
              <Icon aria-hidden="true" size={16} /> {label}
            </button>
          </li>
        ))}
      </ul>
      {sources.length > 0 ? <SourceTabs /> : null}
    </nav>
  );
}

/** A tab per opened package; two files of the same name say which folder each is in. */
function SourceTabs() {
  const { view, sources, activeSourceId, showSource, closeSource, finished, closeFinished } = useFlowStore();
  const ended = sources.filter((source) => Object.hasOwn(finished, source.id)).length;
  const labels = useMemo(
    () =>
      tabLabels(
        sources.map((source) => ({ id: source.id, displayName: source.displayName, folders: source.folders ?? [] })),
      ),
    [sources],
  );
  return (
    <>
      <ul className="nav-list nav-sources" aria-label="Opened packages">
        {sources.map((source) => {
          const where = labels.get(source.id)?.where ?? null;
          const named = where === null ? source.displayName : `${source.displayName} (in ${where})`;
          return (
            <li key={source.id} className="nav-source">
              <button
                type="button"
                className="nav-item"
                aria-current={activeSourceId === source.id ? 'page' : undefined}
                aria-label={where === null ? undefined : named}
                onClick={() => showSource(source.id)}
              >
                {where === null ? (
                  source.displayName
                ) : (
                  <span className="nav-named">
                    <span>{source.displayName}</span>
                    <span className="nav-where">in {where}</span>
                  </span>
                )}
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Close ${named}`}
                onClick={() => closeSource(source.id, view)}
              >
                <X aria-hidden="true" size={14} />
              </button>
            </li>
          );
        })}
      </ul>
      {ended > 0 ? (
        <button type="button" className="link-button nav-clear" onClick={closeFinished}>
          Close {ended === 1 ? 'the finished tab' : `${ended} finished tabs`} (refused, installed or applied)
        </button>
      ) : null}
    </>
  );
}

/** The opened package in view, or the main view picked in the nav. */
function ScreenInView() {
  const { view, sources, activeSourceId } = useFlowStore();
  if (activeSourceId !== null) {
    return (
      <>
        {sources
          .filter((source) => source.id === activeSourceId)
          .map((source) => (
            <SourceScreen key={source.id} source={source} />
          ))}
      </>
    );
  }
  if (view === 'dashboard') return <DashboardScreen />;
  if (view === 'activity') return <ActivityScreen />;
  if (view === 'settings') return <SettingsScreen />;
  if (view === 'runs') return <RunsScreen />;
  if (view === 'updates') return <UpdatesScreen />;
  if (view === 'policy') return <PolicyScreen />;
  return <OpenScreen />;
}
