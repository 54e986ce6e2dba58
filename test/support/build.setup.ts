import { ensureBuilt } from './server-process.js';

/**
 * Global set-up of the tiers that run the built CLI (process, docs): dist/ is built once, before
 * any of their files starts, rather than by two files at once while the other's servers load it.
 */
export default function setup(): void {
  ensureBuilt();
}
