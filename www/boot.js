// A classic script that runs before the page's module (app.js), because it runs where that one
// cannot: browsers refuse module scripts and module workers on a page opened from a file
// (file://), and a server may send the modules with the wrong type. Either way the page would
// wait for its WebAssembly module forever, the reason only in the console; this says on the page
// what happened and how to serve the page instead. It does nothing when the modules load.
(function () {
  'use strict';

  // Text, with the commands as code: [text, code, text, ...].
  var FROM_FILE = ['This page was opened as a file (file://), and browsers do not run its scripts from a ' +
    'file, so the WebAssembly module cannot load. Serve the folder instead: in the repository, run ',
  'scripts/serve.sh', ' and open the http://127.0.0.1 address it prints, or serve this folder with any ' +
    'static web server (for example, ', 'python3 -m http.server', ' run in it).'];
  var NOT_LOADED = ['The page\u2019s scripts could not be loaded from this address, so the WebAssembly module ' +
    'cannot load. Serve the folder with a static web server that sends .js files as JavaScript ' +
    '(in the repository: ', 'scripts/serve.sh', ').'];

  /** Shows `parts` where the backend (or why it did not load) is shown, and turns off what cannot work. */
  function explain(parts) {
    var line = document.getElementById('backend');
    line.textContent = '';
    for (var i = 0; i < parts.length; i++) {
      var node = i % 2 ? document.createElement('code') : document.createTextNode(parts[i]);
      if (i % 2) node.textContent = parts[i];
      line.appendChild(node);
    }
    line.classList.add('bad');
    var controls = document.querySelectorAll('.pick button, .pick input');
    for (var j = 0; j < controls.length; j++) controls[j].disabled = true;
  }

  if (location.protocol === 'file:') {
    explain(FROM_FILE);
    return;
  }
  var app = document.querySelector('script[type="module"][src="app.js"]');
  if (app) app.addEventListener('error', function () { explain(NOT_LOADED); });
})();
