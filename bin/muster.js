#!/usr/bin/env node
// Entry point: the bundled CLI (built by `npm install` / `npm run build`).
import '../dist/cli.js';
