"""The GPU in the app: the capture worker on its own thread, the controller that asks it
and judges its answers with the model, and the GPUs view beside the model."""
