% Events of a handle class: listeners run in order on notify; a disabled
% listener is skipped; an unknown event is an error.
s = Sensor();
lh = addlistener(s, 'Changed', @(src, evt) fprintf('%s -> %g\n', evt.EventName, src.Value));
addlistener(s, 'Changed', @(src, evt) disp(class(evt)));
s.set(3);
lh.Enabled = false;
s.set(7);
disp(s.Value)
try
  notify(s, 'Nope');
catch err
  disp(err.message)
end
