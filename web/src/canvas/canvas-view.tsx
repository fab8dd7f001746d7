/**
 * The canvas view (lazy chunk): an Excalidraw whiteboard with every session standing on it as a
 * character (a DOM control in scene coordinates). Drawings, notes and character positions are one
 * scene saved in the store and restored on reload.
 */
import { Excalidraw, getSceneVersion } from '@excalidraw/excalidraw';
import '@excalidraw/excalidraw/index.css';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { pickAppState } from '../../../src/board/scene.ts';
import type { BoardCharacters, GoalView, Page, Position, Session } from '../types.ts';
import { CharacterLayer, type Viewport } from './character-layer.tsx';
import { placeSessions } from './placement.ts';
import { createSceneSaver, loadScene, type LoadedScene, type SceneSaver } from './scene-sync.ts';

type ExcalidrawProps = Parameters<typeof Excalidraw>[0];
type InitialData = Awaited<Exclude<ExcalidrawProps['initialData'], (() => unknown) | undefined>>;

interface Props {
  sessions: Session[];
  board: BoardCharacters | null;
  theme: 'dark' | 'light';
  pagesBySession: Map<string, Page[]>;
  goalsBySession: Map<string, GoalView>;
  onOpen(s: Session): void;
  onPagesChanged(): void;
}

export default function CanvasView(props: Props) {
  const [loaded, setLoaded] = useState<LoadedScene | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    loadScene().then(setLoaded, (e: Error) => setError(e.message));
  }, []);
  if (error) return <p className="error" role="alert">Cannot load the scene: {error}</p>;
  if (!loaded) return <p className="muted loading">Loading the scene…</p>;
  return <Whiteboard loaded={loaded} {...props} />;
}

function Whiteboard({ loaded, sessions, board, theme, pagesBySession, goalsBySession, onOpen, onPagesChanged }: Props & { loaded: LoadedScene }) {
  const saver = useRef<SceneSaver>(createSceneSaver(loaded.scene.fileIds));
  const latest = useRef({ elements: loaded.scene.elements as readonly Record<string, unknown>[], appState: loaded.scene.appState, files: {} as Record<string, { mimeType: string; dataURL: string }> });
  const sceneVersion = useRef<number | null>(null);
  const [saved, setSaved] = useState<Record<string, Position>>(loaded.scene.positions);
  const [saveError, setSaveError] = useState<string | null>(null);
  const app = loaded.scene.appState as { scrollX?: number; scrollY?: number; zoom?: { value: number } };
  const [viewport, setViewport] = useState<Viewport>({ scrollX: app.scrollX ?? 0, scrollY: app.scrollY ?? 0, zoom: app.zoom?.value ?? 1 });
  const positionsRef = useRef(saved);
  positionsRef.current = saved;
  useEffect(() => saver.current.onError(setSaveError), []);
  useEffect(() => () => void saver.current.flush(), []);

  const placement = useMemo(() => placeSessions(sessions, saved), [sessions, saved]);
  const save = useCallback(() => {
    const l = latest.current;
    saver.current.schedule({ elements: l.elements, appState: l.appState, positions: positionsRef.current, files: l.files });
  }, []);

  const initialData = useMemo<InitialData>(() => ({
    elements: loaded.scene.elements as unknown as NonNullable<InitialData>['elements'],
    appState: { ...loaded.scene.appState, theme } as NonNullable<InitialData>['appState'],
    files: loaded.files as unknown as NonNullable<InitialData>['files'],
    scrollToContent: false,
  }), [loaded]); // theme changes go through the prop, not a reload

  const onChange: NonNullable<ExcalidrawProps['onChange']> = (elements, appState, files) => {
    setViewport((v) => (v.scrollX === appState.scrollX && v.scrollY === appState.scrollY && v.zoom === appState.zoom.value ? v : { scrollX: appState.scrollX, scrollY: appState.scrollY, zoom: appState.zoom.value }));
    latest.current = { elements: elements as unknown as Record<string, unknown>[], appState: pickAppState(appState), files: files as unknown as Record<string, { mimeType: string; dataURL: string }> };
    const v = getSceneVersion(elements);
    // Only drawing changes save from here (first call is the restore itself); scroll rides along with the next save.
    if (sceneVersion.current !== null && v !== sceneVersion.current) save();
    sceneVersion.current = v;
  };

  const onMove = (key: string, p: Position, done: boolean) => {
    const next = { ...positionsRef.current };
    // Pin every auto-placed character on the first drag, so a later arrival cannot shuffle them.
    for (const [k, at] of placement.positions) if (!next[k]) next[k] = at;
    next[key] = { x: Math.round(p.x), y: Math.round(p.y) };
    positionsRef.current = next;
    setSaved(next);
    if (done) save();
  };

  return (
    <section className="canvas-view" data-testid="canvas-view">
      <Excalidraw
        initialData={initialData}
        theme={theme}
        onChange={onChange}
        UIOptions={{ canvasActions: { loadScene: false, saveToActiveFile: false, export: false, saveAsImage: true } }}
      />
      <CharacterLayer sessions={sessions} positions={placement.positions} groups={placement.groups} viewport={viewport} board={board} pagesBySession={pagesBySession} goalsBySession={goalsBySession} onOpen={onOpen} onMove={onMove} onPagesChanged={onPagesChanged} />
      {saveError && <p className="error floating" role="alert">{saveError}</p>}
    </section>
  );
}
