// Verifies one delivery with the standardwebhooks package: reads {"secret", "headers", "body"} as JSON on stdin,
// prints "verified" and exits 0, or prints "refused: <why>" and exits 1.
const { Webhook } = require('standardwebhooks');

let input = '';
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const { secret, headers, body } = JSON.parse(input);
  try {
    new Webhook(secret).verify(body, headers);
    console.log('verified');
    process.exit(0);
  } catch (e) {
    console.log('refused: ' + e.message);
    process.exit(1);
  }
});
