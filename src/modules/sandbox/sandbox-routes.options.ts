import type { SandboxMapper } from './sandbox-bank.mapper.js';
import type { SandboxBank } from './sandbox-bank.service.js';

/** What each mock-data route plugin is given. */
export interface SandboxRouteOptions {
  readonly bank: SandboxBank;
  readonly mapper: SandboxMapper;
}
