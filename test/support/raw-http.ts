import { connect } from 'node:net';

/**
 * Writes `request` as it is on a new connection to the server at `baseUrl` and answers everything
 * the server sends until it closes the connection: for what an HTTP client would not send (a
 * malformed request, an `Expect` it refuses to write, several requests at once).
 */
export function rawExchange(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('timeout')));
  });
}
