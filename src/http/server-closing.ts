import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { refuseOnBareSocket } from './bare-socket-answers.js';

/**
 * What the server does with its connections once it begins to close (SIGTERM, `app.close()`):
 * requests it is handling are answered in full; a request that arrives on a connection still open
 * is refused 503 with the error body, so that the client sends it elsewhere or again; and, after a
 * grace, a connection whose request has not all arrived is let go of.
 *
 * The grace is needed because Node stops enforcing the request timeout at `server.close()` (it
 * stops looking at its connections): a client trickling a body at shutdown would otherwise hold
 * the process open for as long as it keeps trickling.
 */
export interface ServerClosing {
  /** Whether the server has begun to close: new requests are refused. */
  readonly begun: boolean;
}

/**
 * Installs the behaviour above on `app` and answers whether closing has begun (the front door
 * refuses new requests from then on). After `graceMs`, and then every `graceMs` until the server
 * has closed, a connection with no request being handled is closed: with a 503 when a request's
 * body was still arriving, at once when it had none.
 */
export function closeConnectionsGracefully(
  app: FastifyInstance,
  system: string,
  headers: Readonly<Record<string, string>>,
  graceMs: number,
): ServerClosing {
  const state = { begun: false };
  const connections = trackConnections(app.server);
  app.addHook('preClose', async () => {
    state.begun = true;
    // Node closes only the connections idle now; one whose answer is still to come is closed after it.
    for (const socket of connections) closeAfterItsAnswer(socket);
    const sweep = setInterval(() => {
      for (const socket of connections) letGoUnlessHandling(socket, system, headers);
    }, graceMs);
    sweep.unref();
    app.server.once('close', () => clearInterval(sweep));
  });
  return state;
}

/** The server's open connections (one listener per connection, none per request). */
function trackConnections(server: Server): Set<Socket> {
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  return connections;
}

/** The answer a connection is at: the response Node writes to it, if any. */
function currentAnswer(socket: Socket): ServerResponse | null | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
}

function closeAfterItsAnswer(socket: Socket): void {
  const current = currentAnswer(socket);
  if (current && !current.headersSent) current.setHeader('connection', 'close');
}

/**
 * Leaves a connection whose request has all arrived (its handler runs, its answer comes); answers
 * a request still arriving 503 and closes its connection; closes one between requests, or still
 * reading a request's headers, at once (there is no request to answer).
 */
function letGoUnlessHandling(socket: Socket, system: string, headers: Readonly<Record<string, string>>): void {
  const current = currentAnswer(socket);
  if (current?.req.complete) return;
  if (!current || current.headersSent || !socket.writable) {
    socket.destroy();
    return;
  }
  refuseOnBareSocket(
    socket,
    new AppError('SERVER_CLOSING', { detail: 'the request had not all arrived when the server closed' }),
    system,
    headers,
  );
}
