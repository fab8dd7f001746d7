import './excalidraw-assets.ts';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './board.css';

import { loadHarnesses } from './harnesses.ts';

const root = document.getElementById('root');
// The harness list (marks, colours) is one small request; the board renders once it is in.
if (root) void loadHarnesses().then(() => createRoot(root).render(<App />));
