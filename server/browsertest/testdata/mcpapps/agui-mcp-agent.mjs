// An AG-UI agent behind the real @ag-ui/mcp-apps-middleware (CopilotKit's
// MCP Apps for AG-UI), for Stepwise's tests: scripted, localhost only.
// Every run calls the MCP server's "get-time" tool; the middleware runs it
// on the real MCP server (--mcp URL: the official example,
// @modelcontextprotocol/server-basic-vanillajs) and adds the mcp-apps
// activity; runs whose forwardedProps carry __proxiedMCPRequest are the
// page's resource reads and the app's tool calls, answered by the
// middleware itself.
//
//   node agui-mcp-agent.mjs --port 0 --mcp http://127.0.0.1:3001/mcp
//
// Routes: POST /agent (RunAgentInput in, SSE out), GET /requests (every
// input received).

import http from 'node:http';
import { AbstractAgent, CompatibilityBoundary } from '@ag-ui/client';
import { EventType } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { MCPAppsMiddleware } from '@ag-ui/mcp-apps-middleware';
import { Observable } from 'rxjs';

const arg = (name) => { const i = process.argv.indexOf(name); return i < 0 ? undefined : process.argv[i + 1]; };
const port = Number(arg('--port') || 0);
const mcp = arg('--mcp');

class ScriptedAgent extends AbstractAgent {
  run(input) {
    return new Observable((sub) => {
      const { threadId, runId } = input;
      sub.next({ type: EventType.RUN_STARTED, threadId, runId });
      const messageId = 'm-' + runId;
      const toolCallId = 'c-' + runId;
      sub.next({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: 'get-time', parentMessageId: messageId });
      sub.next({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: '{}' });
      sub.next({ type: EventType.TOOL_CALL_END, toolCallId });
      sub.next({ type: EventType.RUN_FINISHED, threadId, runId });
      sub.complete();
    });
  }
}

const agent = new ScriptedAgent();
agent.use(new MCPAppsMiddleware({ mcpServers: [{ type: 'http', url: mcp, serverId: 'time' }] }));

// The chain runAgent builds: the middlewares, then the agent.
function events(input) {
  const chain = [...agent.middlewares, new CompatibilityBoundary()].reduceRight(
    (next, mw) => ({ run: (i) => mw.run(i, next), get messages() { return next.messages; }, get state() { return next.state; } }),
    agent,
  );
  return chain.run(input);
}

const requests = [];

http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/requests') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(requests));
    return;
  }
  if (req.method !== 'POST' || req.url !== '/agent') {
    res.writeHead(404).end();
    return;
  }
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    let input;
    try { input = JSON.parse(body); } catch { res.writeHead(400).end(); return; }
    requests.push(input);
    const encoder = new EventEncoder({ accept: req.headers.accept });
    res.writeHead(200, { 'Content-Type': encoder.getContentType(), 'Cache-Control': 'no-cache' });
    events(input).subscribe({
      next: (ev) => res.write(encoder.encode(ev)),
      error: (e) => { res.write(encoder.encode({ type: EventType.RUN_ERROR, message: String(e) })); res.end(); },
      complete: () => res.end(),
    });
  });
}).listen(port, '127.0.0.1', function () {
  console.log('listening on ' + this.address().port);
});
