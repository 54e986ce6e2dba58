import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * `/metrics` under `serve --workers N`: a scrape lands on any one worker, which asks the primary
 * over IPC; the primary's prom-client AggregatorRegistry asks every worker for its registry (over
 * IPC too) and answers the sum (or first value, per metric). Module state, because prom-client's
 * cluster support is itself per process.
 */

const REQUEST = 'nordic-xs2a:metrics-request';
const RESPONSE = 'nordic-xs2a:metrics-response';
/** Longer than prom-client's own 5 s wait for the workers, so its error is the one seen. */
const ANSWER_TIMEOUT_MS = 10_000;

interface MetricsRequest {
  readonly type: typeof REQUEST;
  readonly requestId: number;
}
interface MetricsResponse {
  readonly type: typeof RESPONSE;
  readonly requestId: number;
  readonly metrics?: string;
  readonly error?: string;
}

let joined = false;

/**
 * Called by a `serve --workers N` worker before it builds its app: the app's metrics then answer
 * the cluster's aggregate. Not inferred from `cluster.isWorker`: under another process manager's
 * cluster (pm2) no primary of ours would answer.
 */
export function joinClusterMetrics(): void {
  joined = true;
  if (!cluster.isWorker) return;
  // prom-client's primary waits for every connected worker, started or not: answer at once
  // (with nothing until the app's registry exists) rather than make scrapes wait for its timeout.
  AggregatorRegistry.setRegistries([]);
  // Constructing one installs prom-client's worker-side listener that answers the primary.
  new AggregatorRegistry();
}

/**
 * In a worker that joined: makes `registry` the one the primary's aggregator reads from this
 * process, and returns how to ask the primary for the aggregate. Otherwise undefined.
 */
export function clusterWorkerExposition(registry: Registry): (() => Promise<string>) | undefined {
  if (!joined || !cluster.isWorker) return undefined;
  AggregatorRegistry.setRegistries([registry]);
  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  let nextId = 0;
  process.on('message', (message: unknown) => {
    if (!isResponse(message)) return;
    const waiting = pending.get(message.requestId);
    if (!waiting) return;
    pending.delete(message.requestId);
    clearTimeout(waiting.timer);
    if (message.error !== undefined || message.metrics === undefined) {
      waiting.reject(new Error(`the primary could not collect the workers' metrics: ${message.error ?? 'no answer'}`));
    } else {
      waiting.resolve(message.metrics);
    }
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const requestId = nextId++;
      const timer = setTimeout(() => {
        pending.delete(requestId);
        reject(new Error('the primary did not answer the metrics request'));
      }, ANSWER_TIMEOUT_MS);
      pending.set(requestId, { resolve, reject, timer });
      const request: MetricsRequest = { type: REQUEST, requestId };
      process.send?.(request, (error: Error | null) => {
        if (error) {
          pending.delete(requestId);
          clearTimeout(timer);
          reject(error);
        }
      });
    });
}

/** In the primary: answers the workers' requests for the aggregate. Returns how to stop answering. */
export function serveClusterMetrics(): () => void {
  const aggregator = new AggregatorRegistry();
  const onMessage = (worker: Worker, message: unknown) => {
    if (!isRequest(message)) return;
    const answer = (response: MetricsResponse) => {
      // The asking worker may have died meanwhile; its answer is then simply dropped.
      if (worker.isConnected()) worker.send(response, () => undefined);
    };
    aggregator.clusterMetrics().then(
      (metrics) => answer({ type: RESPONSE, requestId: message.requestId, metrics }),
      (error: unknown) => answer({ type: RESPONSE, requestId: message.requestId, error: (error as Error).message ?? String(error) }),
    );
  };
  cluster.on('message', onMessage);
  return () => cluster.off('message', onMessage);
}

function isRequest(message: unknown): message is MetricsRequest {
  return typeof message === 'object' && message !== null && (message as MetricsRequest).type === REQUEST;
}

function isResponse(message: unknown): message is MetricsResponse {
  return typeof message === 'object' && message !== null && (message as MetricsResponse).type === RESPONSE;
}
