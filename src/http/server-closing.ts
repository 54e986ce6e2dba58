import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { currentAnswerOf, letGoAfterReadGrace, outsideAnswer } from './bare-socket-answers.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers while the server closes, instead of the 503 every other route gives then
     * (`/health/ready` says itself that the server is not ready).
     */
    answersWhileClosing?: boolean;
  }
}

/**
 * What the server does with its connections once it begins to close (SIGTERM, `app.close()`):
 * requests it is handling are answered in full, and their connections closed after the answer; a
 * request that arrives on a connection still open is refused 503 with the error body, so that the
 * client sends it elsewhere or again; and, after a grace, a request still arriving is refused 503
 * too, and never carried out, even if the rest of it arrives after all.
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
 * Installs the behaviour above on `app` and answers whether closing has begun (the root hook
 * refuses new requests from then on). After `graceMs`, and then every `graceMs` until the server
 * has closed, a connection with no request being handled is let go of.
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

/**
 * A connection whose answer is still to come is closed once it is sent: told so in the answer
 * (`Connection: close`) when its headers are still to be written, else ended after it.
 */
function closeAfterItsAnswer(socket: Socket): void {
  const current = currentAnswerOf(socket);
  if (!current) return;
  if (!current.headersSent) {
    current.setHeader('connection', 'close');
    return;
  }
  current.once('finish', () => {
    // Node has let go of the answer by now: nothing else in flight, the connection is done.
    if (!currentAnswerOf(socket)) socket.end();
  });
}

/**
 * Leaves a connection whose request has all arrived (its handler runs, its answer comes); refuses
 * a request whose body is still arriving 503 and closes its connection; closes one between
 * requests, or still reading a request's headers, at once (there is no request to answer).
 */
function letGoUnlessHandling(socket: Socket, system: string, headers: Readonly<Record<string, string>>): void {
  const current = currentAnswerOf(socket);
  if (current?.req.complete) return;
  if (!current || current.headersSent || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, body } = outsideAnswer(
    new AppError('SERVER_CLOSING', { detail: 'the request had not all arrived when the server closed' }),
    system,
  );
  // Through the request's own response, not the bare socket: Fastify then knows the request is
  // answered (`reply.sent`), and if the rest of the body arrives after all, it runs no further
  // hook and never the handler (the client was told to send the request again).
  current.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  current.end(body);
  letGoAfterReadGrace(socket);
}
