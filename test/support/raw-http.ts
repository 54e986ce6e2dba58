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

/** An answer as {@link rawExchange} gives it: its status, lower-cased headers, and its body parsed as JSON when it is JSON. */
export function parseRawAnswer(answer: string): { status: number; headers: Record<string, string>; body: any } {
  const [head = '', body = ''] = answer.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: json };
}
