import { mount } from 'svelte'
import App from './App.svelte'
import './app.css'

// The launch token has done its job (the shell set a cookie): keep it out of the
// address bar, history and screenshots.
if (new URLSearchParams(location.search).has('token')) {
  history.replaceState(null, '', location.pathname + location.hash)
}

mount(App, { target: document.getElementById('app') as HTMLElement })
