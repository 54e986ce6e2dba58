import { chromiumMissing } from './chromium.js';

/**
 * Global set-up of the browser tier: on a machine without Chromium (outside CI) its tests are
 * skipped, and this says why and what to install, once, where the run's output shows it.
 */
export default function setup(): void {
  const missing = chromiumMissing();
  if (missing !== undefined) process.stderr.write(`\n${missing}\n\n`);
}
