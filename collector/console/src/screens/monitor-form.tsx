export default function Screen() {
  return <h1>monitor-form</h1>
}
