// Entry point: the styles and the application, mounted into index.html's #app.
import { render } from 'preact';
import { App } from './app/App';
import './app/styles.css';

render(<App />, document.getElementById('app')!);
