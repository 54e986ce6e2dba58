/**
 * The contract suite against a small in-memory adapter: the port is implementable without this
 * project's database.
 */
import { createInMemoryCoreBanking } from '../support/in-memory-core-banking.js';
import { runCoreBankingContract } from './core-banking.contract.js';

runCoreBankingContract('in memory', async () => createInMemoryCoreBanking());
