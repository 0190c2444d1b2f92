// A minimal SMTP server for the flows that need mail (the password reset): it listens on an
// ephemeral port of 127.0.0.1, answers the plain dialogue (no TLS, no AUTH) and keeps each message.
import net from 'node:net';

/** Starts the sink; answers {port, mails: [{from, to, raw}], close()}. */
export async function smtpSink() {
  const mails = [];
  const server = net.createServer((sock) => {
    sock.setEncoding('latin1');
    let buf = '';
    let data = null; // the message's lines while in DATA
    let envelope = { from: '', to: [] };
    const say = (line) => sock.write(`${line}\r\n`);
    say('220 e2e-sink ESMTP');
    sock.on('error', () => {});
    sock.on('data', (chunk) => {
      buf += chunk;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i).replace(/\r$/, '');
        buf = buf.slice(i + 1);
        if (data) {
          if (line === '.') {
            mails.push({ ...envelope, raw: data.join('\r\n') });
            data = null;
            say('250 2.0.0 queued');
          } else {
            data.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO') sock.write('250-e2e-sink\r\n250 8BITMIME\r\n');
        else if (verb === 'HELO') say('250 e2e-sink');
        else if (verb === 'MAIL') {
          envelope = { from: line.replace(/^MAIL FROM:\s*/i, ''), to: [] };
          say('250 2.1.0 OK');
        } else if (verb === 'RCPT') {
          envelope.to.push(line.replace(/^RCPT TO:\s*/i, ''));
          say('250 2.1.5 OK');
        } else if (verb === 'DATA') {
          data = [];
          say('354 end with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          say('221 2.0.0 bye');
          sock.end();
        } else say('250 OK'); // RSET, NOOP
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    mails,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// The text of a mail as far as links go: decoded (quoted-printable, base64 parts), then as sent.
export function mailTexts(raw) {
  const texts = [];
  if (/quoted-printable/i.test(raw)) {
    texts.push(
      raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))),
    );
  }
  for (const b of raw.match(/^[A-Za-z0-9+/]{40,}={0,2}(?:\r?\n[A-Za-z0-9+/]+={0,2})*$/gm) || []) {
    texts.push(Buffer.from(b.replace(/\s/g, ''), 'base64').toString('utf8'));
  }
  return [...texts, raw];
}
