// Reads a text/event-stream body (the live events stream needs the Authorization header, which
// EventSource cannot send): calls back once per message with its event name and data.

export async function readEventStream(body: ReadableStream<Uint8Array>, onMessage: (event: string, data: string) => void, onComment?: (text: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) onComment?.(line.slice(1).trim());
        else if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) onMessage(event, data.join('\n'));
    }
  }
}
