// An AI SDK chat route, built with the `ai` package as its documentation
// shows one, for Stepwise's tests: streamText with the SDK's own mock
// language model (scripted, deterministic), a tool that runs, a tool that
// needs approval, toUIMessageStreamResponse(), and a resumable stream
// (GET /api/chat/:id/stream, 204 when idle).
//
//   node aisdk-server.mjs --port 8123
//
// Routes:
//   POST /api/chat              the chat route
//   GET  /api/chat/:id/stream   the chat's active stream, replayed from its start; 204 when none
//   GET  /requests              every request body the route received, oldest first
//   GET  /prompts               the prompts the model received (the SDK's conversion of the messages)
//   GET  /finished              the UIMessages the SDK's onFinish reported, one list per response
//   POST /release               lets a waiting "slow" answer go on
//   POST /reset                 forgets all of the above
//
// What the model does depends on the last user message: "delete ..." calls
// deleteFile (needs approval); "slow ..." streams text, waits for /release,
// then finishes; "fail ..." fails the stream; "flights ..." calls
// searchFlights, whose progress shows until /release lets it finish;
// "ask ..." calls askUser and "confirm ..." requestApproval, which the
// client answers; anything else looks up the weather (reasoning,
// getWeather, a source, an answer).

import http from 'node:http';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const port = Number(arg('--port', 0));
const aiPackage = 'ai' + arg('--ai', '7');
const { streamText, tool, stepCountIs, convertToModelMessages, validateUIMessages, simulateReadableStream } = await import(aiPackage);
const { MockLanguageModelV3 } = await import(aiPackage + '/test');
const aiVersion = JSON.parse(readFileSync(new URL('./node_modules/' + aiPackage + '/package.json', import.meta.url))).version;

let requests = [];
let prompts = [];
let finished = [];
const active = new Map(); // chat id -> { chunks: [], done, listeners }
let gate = deferred();

function deferred() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const finish = (unified) => ({ type: 'finish', finishReason: { unified, raw: unified }, usage });

function lastUserText(prompt) {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i];
    if (m.role === 'user') {
      return m.content.filter((p) => p.type === 'text').map((p) => p.text).join(' ');
    }
  }
  return '';
}

function textChunks(id, text) {
  const words = text.split(/(?<= )/);
  return [{ type: 'text-start', id }, ...words.map((delta) => ({ type: 'text-delta', id, delta })), { type: 'text-end', id }];
}

// The scripted model: the SDK calls it once per step with the prompt it
// built from the UIMessages (convertToModelMessages).
const model = new MockLanguageModelV3({
  doStream: async (options) => {
    prompts.push(options.prompt);
    const prompt = options.prompt;
    const last = prompt[prompt.length - 1];
    const text = lastUserText(prompt).toLowerCase();
    const start = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', id: 'resp-' + prompts.length, modelId: 'mock', timestamp: new Date(0) }];

    if (last.role === 'tool') {
      // The tools ran (or were denied): answer from their results.
      const results = last.content.filter((p) => p.type === 'tool-result');
      const denied = results.some((r) => r.output && r.output.type === 'execution-denied');
      let answer;
      const ask = results.find((r) => r.toolName === 'askUser');
      const confirm = results.find((r) => r.toolName === 'requestApproval');
      if (results.some((r) => r.toolName === 'deleteFile')) {
        answer = denied ? 'I did not delete the file.' : 'The file was deleted.';
      } else if (ask) {
        answer = ask.output.type === 'json' ? 'You chose ' + ask.output.value.answer + '.' : 'You did not answer.';
      } else if (confirm) {
        answer = confirm.output.type === 'json' && confirm.output.value.approved ? 'The invoice was paid.' : 'I did not pay the invoice.';
      } else if (results.some((r) => r.toolName === 'searchFlights')) {
        answer = 'The cheapest flight is VN 123.';
      } else {
        answer = 'It is 31 degrees and sunny in Hanoi.';
      }
      const chunks = [...start, ...textChunks('answer', answer)];
      if (!denied && results.some((r) => r.toolName === 'getWeather')) {
        chunks.push({ type: 'source', sourceType: 'url', id: 'src-1', url: 'https://weather.example/hanoi', title: 'Hanoi weather' });
      }
      chunks.push(finish('stop'));
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs: 5 }) };
    }
    if (text.includes('delete')) {
      return {
        stream: simulateReadableStream({
          chunks: [...start, { type: 'tool-call', toolCallId: 'call-delete-' + prompts.length, toolName: 'deleteFile', input: JSON.stringify({ path: '/tmp/report.txt' }) }, finish('tool-calls')],
        }),
      };
    }
    const call = (toolName, input) => ({
      stream: simulateReadableStream({
        chunks: [...start, { type: 'tool-call', toolCallId: 'call-' + toolName + '-' + prompts.length, toolName, input: JSON.stringify(input) }, finish('tool-calls')],
      }),
    });
    if (text.includes('flights')) return call('searchFlights', { from: 'HAN', to: 'SGN' });
    if (text.includes('ask')) return call('askUser', { question: 'Which city?', options: ['Hanoi', 'Hue'] });
    if (text.includes('confirm')) return call('requestApproval', { message: 'Pay invoice 42 (120 EUR)?', action: 'payInvoice', arguments: { invoice: 42, amount: 120 } });
    if (text.includes('slow')) {
      // Text, then a wait the test ends with POST /release.
      const stream = new ReadableStream({
        async start(controller) {
          for (const c of [...start, { type: 'text-start', id: 'slow' }, { type: 'text-delta', id: 'slow', delta: 'Working on it' }]) controller.enqueue(c);
          await gate.promise;
          gate = deferred();
          for (const c of [{ type: 'text-delta', id: 'slow', delta: ', done.' }, { type: 'text-end', id: 'slow' }, finish('stop')]) controller.enqueue(c);
          controller.close();
        },
      });
      return { stream };
    }
    if (text.includes('fail')) {
      return { stream: simulateReadableStream({ chunks: [...start, { type: 'error', error: new Error('The model is overloaded.') }] }) };
    }
    return {
      stream: simulateReadableStream({
        chunks: [
          ...start,
          { type: 'reasoning-start', id: 'think' },
          { type: 'reasoning-delta', id: 'think', delta: 'The user wants the weather; ' },
          { type: 'reasoning-delta', id: 'think', delta: 'I will look it up.' },
          { type: 'reasoning-end', id: 'think' },
          { type: 'tool-input-start', id: 'call-weather-1', toolName: 'getWeather' },
          { type: 'tool-input-delta', id: 'call-weather-1', delta: '{"city":' },
          { type: 'tool-input-delta', id: 'call-weather-1', delta: '"Hanoi"}' },
          { type: 'tool-input-end', id: 'call-weather-1' },
          { type: 'tool-call', toolCallId: 'call-weather-1', toolName: 'getWeather', input: '{"city":"Hanoi"}' },
          finish('tool-calls'),
        ],
        chunkDelayInMs: 5,
      }),
    };
  },
});

const tools = {
  getWeather: tool({
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, temperature: 31, condition: 'sunny' }),
  }),
  searchFlights: tool({
    description: 'Search flights; reports its progress',
    inputSchema: z.object({ from: z.string(), to: z.string() }),
    async *execute({ from, to }) {
      yield { status: 'searching', text: 'Searching flights from ' + from + ' to ' + to + '…' };
      await gate.promise;
      gate = deferred();
      yield { status: 'done', cheapest: 'VN 123', price: 89 };
    },
  }),
  // No execute: the client answers them (useChat's addToolOutput).
  askUser: tool({
    description: 'Ask the user a question and wait for the answer',
    inputSchema: z.object({ question: z.string(), options: z.array(z.string()).optional() }),
    outputSchema: z.object({ answer: z.string() }),
  }),
  requestApproval: tool({
    description: 'Ask the user to approve an action before taking it',
    inputSchema: z.object({ message: z.string(), action: z.string().optional(), arguments: z.any().optional() }),
    outputSchema: z.object({ approved: z.boolean(), reason: z.string().optional() }),
  }),
  deleteFile: tool({
    description: 'Delete a file',
    inputSchema: z.object({ path: z.string() }),
    needsApproval: true,
    execute: async ({ path }) => ({ deleted: path }),
  }),
};

async function chat(body) {
  const messages = await validateUIMessages({ messages: body.messages, tools });
  const result = streamText({
    model,
    messages: await convertToModelMessages(messages, { tools }),
    tools,
    stopWhen: stepCountIs(5),
  });
  const record = { chunks: [], done: false, listeners: new Set() };
  active.set(body.id, record);
  return result.toUIMessageStreamResponse({
    originalMessages: messages,
    sendSources: true,
    onFinish: ({ messages }) => finished.push(messages),
    consumeSseStream: async ({ stream }) => {
      for await (const chunk of stream) {
        record.chunks.push(chunk);
        for (const l of record.listeners) l(chunk);
      }
      record.done = true;
      for (const l of record.listeners) l(null);
      if (active.get(body.id) === record) active.delete(body.id);
    },
  });
}

async function readJSON(req) {
  let raw = '';
  for await (const c of req) raw += c;
  return JSON.parse(raw);
}

async function sendResponse(res, response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const reader = response.body.getReader();
  res.on('close', () => reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  try {
    if (req.method === 'POST' && url.pathname === '/api/chat') {
      const body = await readJSON(req);
      requests.push(body);
      let response;
      try {
        response = await chat(body);
      } catch (err) {
        return json(res, 400, { error: String(err && err.message ? err.message : err) });
      }
      return await sendResponse(res, response);
    }
    const m = url.pathname.match(/^\/api\/chat\/([^/]+)\/stream$/);
    if (req.method === 'GET' && m) {
      const record = active.get(decodeURIComponent(m[1]));
      if (!record || record.done) {
        res.writeHead(204);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-vercel-ai-ui-message-stream': 'v1' });
      for (const c of record.chunks) res.write(c);
      await new Promise((resolve) => {
        const l = (chunk) => (chunk === null ? resolve() : res.write(chunk));
        record.listeners.add(l);
        res.on('close', () => {
          record.listeners.delete(l);
          resolve();
        });
      });
      return res.end();
    }
    if (req.method === 'GET' && url.pathname === '/version') return json(res, 200, { ai: aiVersion, node: process.version });
    if (req.method === 'GET' && url.pathname === '/requests') return json(res, 200, requests);
    if (req.method === 'GET' && url.pathname === '/prompts') return json(res, 200, prompts);
    if (req.method === 'GET' && url.pathname === '/finished') return json(res, 200, finished);
    if (req.method === 'POST' && url.pathname === '/release') {
      gate.resolve();
      return json(res, 200, { ok: true });
    }
    if (req.method === 'POST' && url.pathname === '/reset') {
      requests = [];
      prompts = [];
      finished = [];
      return json(res, 200, { ok: true });
    }
    json(res, 404, { error: 'not found' });
  } catch (err) {
    if (!res.headersSent) json(res, 500, { error: String(err) });
    else res.end();
  }
});

server.listen(port, '127.0.0.1', () => {
  // The test reads the port from this line.
  console.log('listening on ' + server.address().port);
});
